"""The live message of an Extrawurm game shows the expansion: 11 and 13 on the grill,
where each specialist sits or who holds it, extra tiles and Bratwurms, and the Weasel."""

from __future__ import annotations

import random

from bot.games.pickomino.adapter import PickominoAdapter
from bot.games.pickomino.engine import Face, Game, Phase, Rules
from bot.games.pickomino.engine.specialists import Place, Specialist
from bot.games.pickomino.plugin import PICKOMINO
from bot.plugin.session_message import render_session
from bot.sessions.model import Seat, Session, Status


def _session(seed: int) -> Session:
    seats = [Seat(101, "Anne"), Seat(102, "Bob")]
    session = Session("pickomino", 1, 2, 101, seats, id=5, version=1, status=Status.PLAYING)
    session.options = {"extrawurm": True}
    session.game = PickominoAdapter().new_game(["101", "102"], session.options, random.Random(seed))
    return session


def _text(session: Session) -> str:
    rendered = render_session(session, PICKOMINO)
    return "\n".join(getattr(block, "content", "") for block in rendered.blocks)


def test_the_grill_shows_11_and_13_and_the_specialists_on_their_tiles():
    text = _text(_session(1))
    # Each mark joined to its tile (a word joiner: never parted by a line break), and
    # the Golden Die's own 🪙, not the roll's 🎲.
    assert "**11**\u2060🥫" in text and "**13**" in text
    for mark in ("**21**\u2060🐔", "**23**\u2060🦦", "**25**\u2060🐦‍⬛", "**27**\u2060🪙"):
        assert mark in text
    assert "🎲" not in text


def test_a_weasel_holder_with_no_new_face_chooses_between_the_weasel_and_the_bust():
    adapter = PickominoAdapter()
    for seed in range(400):
        session = _session(seed)
        game, rng = session.game, random.Random(seed)
        while not game.is_over and game.phase is not Phase.NO_NEW_FACE:
            move = adapter.bot_move(adapter.copy(game), "easy")
            if move == "weasel":  # the easy bot would take the Weasel: stop just before
                break
            adapter.play(game, game.current_player, move, rng)
        if game.phase is Phase.NO_NEW_FACE:
            labels = [b.label for row in render_session(session, PICKOMINO).layout for b in row]
            assert "Weasel" in labels and "Take the bust" in labels
            holder = game.current_player
            name = session.name_of(holder)
            player_lines = [line for line in _text(session).splitlines() if "▶️" in line]
            assert any(name in line and "🦦" in line for line in player_lines), player_lines
            return
    raise AssertionError("no game reached a roll with no new face for the Weasel's holder")


def _at(current: str, kept: list[Face], specialists: dict[Specialist, Place]) -> Session:
    session = _session(1)
    session.game = Game.from_position(
        ["101", "102"],
        Rules(extrawurm=True),
        grill=[11, 13, *range(21, 37)],
        current=current,
        kept=kept,
        specialists=specialists,
    )
    return session


def _kept_line(session: Session) -> str:
    return next(line for line in _text(session).splitlines() if line.startswith("Kept"))


FIVES_AND_FOURS = [Face.FIVE] * 3 + [Face.FOUR] * 2  # 23, no worm


def test_the_canned_worm_is_added_to_the_kept_total_when_no_worm_die_is_kept():
    session = _at("101", FIVES_AND_FOURS, {Specialist.CANNED_WORM: "101"})
    line = _kept_line(session)
    assert "= 23 + 🥫 5 = **28**" in line
    # The can is the worm, and the prompt offers 28's tile.
    assert "Stop now to take 28" in _text(session)


def test_the_canned_worm_adds_nothing_once_a_worm_die_is_kept():
    session = _at("101", [Face.WORM] * 2 + [Face.FIVE], {Specialist.CANNED_WORM: "101"})
    line = _kept_line(session)
    assert "🥫" not in line and "= **15**" in line


def test_only_the_movers_canned_worm_counts():
    session = _at("101", FIVES_AND_FOURS, {Specialist.CANNED_WORM: "102"})
    line = _kept_line(session)
    assert "🥫" not in line and "= **23**" in line
    assert "Roll 3 dice: you need a worm to stop" in _text(session)


def test_the_golden_die_is_shown_with_the_kept_total_and_before_any_keep():
    kept = _at("101", FIVES_AND_FOURS, {Specialist.GOLDEN_DIE: "101"})
    assert "= **23** · 🪙\u00a0+1\u00a0die" in _kept_line(kept)
    fresh = _at("101", [], {Specialist.GOLDEN_DIE: "101"})
    assert "🪙 Golden Die: roll 9 dice" in _text(fresh)
    other = _at("102", [], {Specialist.GOLDEN_DIE: "101"})
    assert "Golden Die" not in _text(other)


def test_specialists_moving_by_themselves_do_not_break_the_message():
    """The Raven hopping on, a specialist leaving the game: events with no player."""
    session = _session(1)
    session.log = [
        {"type": "specialist_returned", "specialist": "raven", "tile": 13, "player": None},
        {"type": "specialist_left", "specialist": "hen", "player": None},
        {"type": "bratwurm", "player": "101", "reason": "raven", "source": None},
    ]
    assert "Anne" in _text(session)
