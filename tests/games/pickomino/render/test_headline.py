"""The latest bust or steal heads the live message until the player it hit rolls on
their next turn: a steal's headline names thief, victim and tile, as a bust's names
who failed and why."""

from __future__ import annotations

import json

from bot.games.pickomino.engine import Claim, ClaimOption, Face, Game, Keep, Roll, Rules
from bot.games.pickomino.engine.events import Failed, HenStolen, Stole
from bot.games.pickomino.engine.serialization import game_from_dict, game_to_dict
from bot.games.pickomino.engine.specialists import Specialist
from bot.games.pickomino.plugin import PICKOMINO
from bot.games.pickomino.render.text import event_line
from bot.i18n import with_locale
from bot.plugin.session_message import render_session
from bot.sessions.model import Seat, Session, Status
from tests.games.pickomino.engine.helpers import faces, position

ANNE, BOB, CARA = "1", "2", "3"


def _session(game: Game) -> Session:
    seats = [Seat(1, "Anne"), Seat(2, "Bob"), Seat(3, "Cara")]
    session = Session("pickomino", 1, 2, 1, seats, id=5, version=1, status=Status.PLAYING)
    session.game = game
    return session


def _headline(session: Session, locale: str = "en") -> str | None:
    """The line under whose turn it is, when it is a headline."""
    with with_locale(locale):
        text = render_session(session, PICKOMINO).blocks[0].content  # type: ignore[attr-defined]
    lines = text.splitlines()
    return lines[1] if len(lines) > 1 and lines[1][:1] in "💥⚔" else None


def _steal_27_from_cara(rules: Rules | None = None, **extrawurm) -> Game:
    """Anne keeps 27 while 27 tops Cara's stack, and steals it."""
    game = position({ANNE: [], BOB: [], CARA: [27]}, rules=rules, **extrawurm)
    for dice, face in (("WW444512", "W"), ("444512", "4"), ("512", "5")):
        game.apply(Roll(faces(dice)))
        game.apply(Keep(Face.parse(face)))
    game.apply(Claim(ClaimOption.steal(27, CARA)))
    return game


def _bust_on_a_roll(game: Game) -> None:
    """The player to move keeps worms, then rolls worms only: a failure."""
    game.apply(Roll(faces("WW123451")))
    game.apply(Keep(Face.WORM))
    game.apply(Roll(faces("WWWWWW")))


def test_a_steal_heads_the_message_until_its_victim_rolls():
    game = _steal_27_from_cara()
    session = _session(game)
    assert game.current_player == BOB
    assert game.setback is not None and game.setback.event == Stole(ANNE, CARA, 27)
    assert _headline(session) == "⚔️ Anne stole 27 from Cara"
    assert _headline(session, "de") == "⚔️ Anne schnappt Cara die 27 weg"
    # Bob's whole turn: the headline stays (it disappeared at his first roll before).
    game.apply(Roll(faces("WW123451")))
    assert _headline(session) == "⚔️ Anne stole 27 from Cara"
    game.apply(Keep(Face.WORM))
    game.apply(Roll(faces("555444")))
    game.apply(Keep(Face.FIVE))
    game.apply(Claim(ClaimOption.grill(25)))
    # Cara's turn begins: she sees what happened to her.
    assert game.current_player == CARA
    assert _headline(session) == "⚔️ Anne stole 27 from Cara"
    game.apply(Roll(faces("12345WWW")))
    assert game.setback is None and _headline(session) is None


def test_a_bust_stays_until_the_next_turn_of_who_failed():
    game = position({ANNE: [], BOB: [22], CARA: []}, current=BOB)
    session = _session(game)
    _bust_on_a_roll(game)
    assert game.current_player == CARA
    assert isinstance(game.setback.event, Failed)  # type: ignore[union-attr]
    assert _headline(session) == "💥 Bob busted: all kept already"
    assert _headline(session, "pl") == "💥 Bob: nieudany rzut, nic nowego"
    game.apply(Roll(faces("WW123451")))  # Cara plays on: the bust is still told
    assert _headline(session) == "💥 Bob busted: all kept already"


def test_the_latest_setback_replaces_an_older_one():
    game = _steal_27_from_cara()
    _bust_on_a_roll(game)  # Bob fails after Anne's steal
    session = _session(game)
    assert _headline(session) == "💥 Bob busted: all kept already"


def test_stealing_the_hen_heads_the_message_naming_the_hen():
    rules = Rules(extrawurm=True)
    game = _steal_27_from_cara(rules, specialists={Specialist.HEN: CARA, Specialist.GOLDEN_DIE: 30})
    assert game.setback is not None and game.setback.event == HenStolen(ANNE, CARA, 27)
    session = _session(game)
    assert _headline(session) == "⚔️ Anne stole the 🐔 Hen from Cara"
    assert _headline(session, "de") == "⚔️ Anne schnappt Cara die 🐔 Glucke weg"
    line = event_line(
        {"type": "hen_stolen", "player": ANNE, "victim": CARA, "tile": 27}, session.name_of
    )
    assert line == "Anne stole the Hen from Cara"  # and the log tells it, as it tells a steal


def test_a_setback_is_stored_with_the_game():
    game = _steal_27_from_cara()
    data = json.loads(json.dumps(game_to_dict(game)))
    assert data["setback"] == {"type": "stole", "player": ANNE, "victim": CARA, "tile": 27}
    assert game_from_dict(data) == game
    data["schema"] = 2  # stored before setbacks were kept: none to tell
    data.pop("setback")
    assert game_from_dict(data).setback is None


def test_a_victim_who_leaves_takes_the_headline_along():
    game = _steal_27_from_cara()
    game.remove_player(CARA)
    assert game.setback is None
