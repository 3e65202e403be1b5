"""The "what now" line: every state of a Pickomino turn (base and Extrawurm) has its
prompt, a catalog key and raw arguments, worded in the player's language; the line in
the live message is that wording."""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.games.pickomino.adapter import PickominoAdapter
from bot.games.pickomino.engine import Face, Game, Keep, LowerTile, Phase, Roll, Rules
from bot.games.pickomino.engine.specialists import Specialist
from bot.games.pickomino.plugin import PICKOMINO
from bot.games.pickomino.render.blocks import SPECIALIST_MARK
from bot.games.pickomino.render.what_now import Offer, what_now
from bot.games.pickomino.render.what_now_words import what_now_text
from bot.i18n import catalog, with_locale
from bot.plugin.session_message import render_session
from bot.sessions.model import Seat, Session, Status
from tests.games.pickomino.engine.helpers import faces, position

NAMES = {"anne": "Anne", "bob": "Bob"}
EXTRAWURM = Rules(extrawurm=True)


def _words(game: Game, locale: str, *, menu: bool = False) -> str:
    prompt = what_now(game, claims_in_menu=menu)
    assert prompt is not None
    with with_locale(locale):
        return what_now_text(prompt, lambda player: NAMES.get(player, player), SPECIALIST_MARK)


def _rolled(game: Game, *rolls: str) -> Game:
    """Roll then keep, per `roll:face` pair; a lone roll is left on the table."""
    for step in rolls:
        dice, _, face = step.partition(":")
        game.apply(Roll(faces(dice)))
        if face:
            game.apply(Keep(Face.parse(face)))
    return game


def start() -> Game:
    return position({"anne": [], "bob": []})


def golden_die_start() -> Game:
    return position(
        {"anne": [], "bob": []}, rules=EXTRAWURM, specialists={Specialist.GOLDEN_DIE: "anne"}
    )


def keep() -> Game:
    return _rolled(start(), "WW445551:5", "W4431")


def weasel_keep() -> Game:
    game = position(
        {"anne": [], "bob": []}, rules=EXTRAWURM, specialists={Specialist.WEASEL: "anne"}
    )
    return _rolled(game, "44455512")


def no_new_face() -> Game:
    game = position(
        {"anne": [], "bob": []}, rules=EXTRAWURM, specialists={Specialist.WEASEL: "anne"}
    )
    game = _rolled(game, "WW122345:W", "112345:5")
    game.apply(Roll(faces("55W5W")))
    return game


def stop() -> Game:
    return _rolled(start(), "WW444512:W", "444512:4", "512:5")  # 10 + 12 + 5 = 27


def stop_steal() -> Game:
    game = position({"anne": [], "bob": [27]})
    return _rolled(game, "WW444512:W", "444512:4", "512:5")  # 27 tops Bob's stack


def stop_hen() -> Game:
    game = position(
        {"anne": [], "bob": [27]},
        rules=EXTRAWURM,
        specialists={Specialist.HEN: "bob", Specialist.GOLDEN_DIE: 30},
    )
    return _rolled(game, "WW444512:W", "444512:4", "512:5")


def stop_specialist() -> Game:
    game = position({"anne": [], "bob": []}, rules=EXTRAWURM)
    return _rolled(game, "WW444512:W", "444512:4", "512:5")  # 27 carries the Golden Die


def stop_raven() -> Game:
    game = position({"anne": [], "bob": []}, rules=EXTRAWURM)
    return _rolled(game, "WW555412:W", "555412:5")  # 25 carries the Raven


def stop_menu() -> Game:
    game = position({"anne": [], "bob": []}, rules=Rules(lower_tile=LowerTile.ANY))
    return _rolled(game, "WWWW5551:W", "5551:5")  # 35: every tile up to it


def no_worm() -> Game:
    return _rolled(start(), "44455512:5")


def no_tile() -> Game:
    return _rolled(start(), "WW445551:W")  # 10 with a worm


def claim_dice() -> Game:
    return _rolled(start(), "WWW44443:4", "WWW3:W", "3:3")  # every die kept: 16 + 15 + 3


def claim_faces() -> Game:
    steps = ("1WWWWWWW:1", "2WWWWWW:2", "3WWWWW:3", "44WWW:4", "5WW:5", "W1:W")
    return _rolled(start(), *steps)  # 24 with a die left


STATES: list[tuple[Callable[[], Game], str, str, str]] = [
    (start, "pickomino.now.start", "Roll 8 dice to begin", "Los geht's: 8 Würfel würfeln"),
    (
        golden_die_start,
        "pickomino.now.start.golden_die",
        "🪙 Golden Die: roll 9 dice",
        "🪙 Goldwürfel: 9 Würfel würfeln",
    ),
    (keep, "pickomino.now.keep", "Keep one face: 1️⃣ 3️⃣ 4️⃣ 🪱", "Wert wählen: 1️⃣ 3️⃣ 4️⃣ 🪱"),
    (
        weasel_keep,
        "pickomino.now.keep.weasel",
        "Keep one face: 1️⃣ 2️⃣ 4️⃣ 5️⃣, or 🦦 Weasel to roll again",
        "Wert wählen: 1️⃣ 2️⃣ 4️⃣ 5️⃣ – oder 🦦 Wiesel: neu würfeln",
    ),
    (
        no_new_face,
        "pickomino.now.no_new_face",
        "No new face: 🦦 Weasel to roll again, or take the bust",
        "Kein neuer Wert: 🦦 Wiesel würfelt neu – oder Fehlwurf nehmen",
    ),
    (
        stop,
        "pickomino.now.stop",
        "Stop now to take 27, or roll 2 dice",
        "27 nehmen – oder 2 Würfel würfeln",
    ),
    (
        stop_steal,
        "pickomino.now.stop",
        "Stop now to take 26 or steal 27 from Bob, or roll 2 dice",
        "26 nehmen oder 27 von Bob schnappen – oder 2 Würfel würfeln",
    ),
    (
        stop_hen,
        "pickomino.now.stop",
        "Stop now to take 26 or steal the 🐔 Hen from Bob, or roll 2 dice",
        "26 nehmen oder Bob die 🐔 Glucke schnappen – oder 2 Würfel würfeln",
    ),
    (
        stop_specialist,
        "pickomino.now.stop",
        "Stop now to take 27 + 🪙, or roll 2 dice",
        "27 + 🪙 nehmen – oder 2 Würfel würfeln",
    ),
    (
        stop_raven,
        "pickomino.now.stop",
        "Stop now to take 25 + 🌭, or roll 3 dice",
        "25 + 🌭 nehmen – oder 3 Würfel würfeln",
    ),
    (
        no_worm,
        "pickomino.now.roll.no_worm",
        "Roll 5 dice: you need a worm to stop",
        "5 Würfel würfeln: zum Aufhören fehlt ein Wurm",
    ),
    (
        no_tile,
        "pickomino.now.roll.no_tile",
        "Roll 6 dice: no tile for 10 yet",
        "6 Würfel würfeln: für 10 gibt es noch keine Portion",
    ),
    (
        claim_dice,
        "pickomino.now.claim.dice",
        "All dice kept: take 34",
        "Alle Würfel beiseite: 34 nehmen",
    ),
    (
        claim_faces,
        "pickomino.now.claim.faces",
        "Every face kept: take 24",
        "Alle Werte beiseite: 24 nehmen",
    ),
]


@pytest.mark.parametrize(
    ("build", "key", "english", "german"), STATES, ids=[s[1] + ":" + s[0].__name__ for s in STATES]
)
def test_every_state_of_a_turn_has_its_prompt(build, key, english, german):
    game = build()
    prompt = what_now(game)
    assert prompt is not None and prompt.key == key
    assert _words(game, "en") == english
    assert _words(game, "de") == german


def test_the_hen_prompt_names_what_its_button_does():
    """Stealing from the Hen's holder takes the Hen, not the tile (RULES.md): the prompt
    says so, as the button ("Steal the Hen") does."""
    game = stop_hen()
    prompt = what_now(game)
    assert prompt is not None
    assert Offer(27, "bob", hen=True) in prompt.args["offers"]
    assert "steal 27" not in _words(game, "en")
    session = _session(game)
    labels = [button.label for row in render_session(session, PICKOMINO).layout for button in row]
    assert "Steal the Hen" in labels and "Steal 27" not in labels


def test_the_canned_worm_is_the_worm_of_a_stop():
    game = position(
        {"anne": [], "bob": []}, rules=EXTRAWURM, specialists={Specialist.CANNED_WORM: "anne"}
    )
    game = _rolled(game, "55544412:5", "44412:4")  # 27 with no worm die, the can makes 32
    prompt = what_now(game)
    assert prompt is not None and prompt.key == "pickomino.now.stop"
    assert prompt.args["canned_worm"] is True
    assert _words(game, "en") == "Stop now to take 32, or roll 2 dice"


def test_claims_in_a_menu_are_left_to_the_menu():
    game = stop_menu()
    prompt = what_now(game, claims_in_menu=True)
    assert prompt is not None and prompt.key == "pickomino.now.stop.menu"
    assert _words(game, "en", menu=True) == "Stop now (pick a tile in the menu), or roll 1 die"
    assert _words(game, "pl", menu=True) == "Skończ (wybierz w menu) – albo rzuć 1 kością"
    claim = claim_faces()
    assert what_now(claim, claims_in_menu=True).key == "pickomino.now.claim.menu"  # type: ignore[union-attr]


def test_a_game_over_has_no_prompt():
    game = start()
    game.abandon()
    assert what_now(game) is None


def _session(game: Game) -> Session:
    seats = [Seat(1, "Anne"), Seat(2, "Bob")]
    session = Session("pickomino", 1, 2, 1, seats, id=5, version=1, status=Status.PLAYING)
    session.game = Game.from_position(
        ["1", "2"],
        game.rules,
        grill=game.grill,
        face_down=game.face_down,
        stacks={"1": game.stacks[game.players[0]], "2": game.stacks[game.players[1]]},
        current=game.current,
        phase=game.phase,
        kept=game.kept,
        roll=game.roll,
        specialists=None
        if game.expansion is None
        else {
            specialist: {"anne": "1", "bob": "2"}.get(place, place)  # type: ignore[arg-type]
            for specialist, place in game.expansion.specialists.items()
        },
    )
    return session


PROMPTS_OF_PHASE = {
    Phase.ROLL: {
        "pickomino.now.start",
        "pickomino.now.start.golden_die",
        "pickomino.now.stop",
        "pickomino.now.stop.menu",
        "pickomino.now.roll.no_worm",
        "pickomino.now.roll.no_tile",
    },
    Phase.KEEP: {"pickomino.now.keep", "pickomino.now.keep.weasel"},
    Phase.NO_NEW_FACE: {"pickomino.now.no_new_face"},
    Phase.CLAIM: {
        "pickomino.now.claim.dice",
        "pickomino.now.claim.faces",
        "pickomino.now.claim.menu",
    },
}


@pytest.mark.parametrize("extrawurm", [False, True])
def test_random_games_show_a_prompt_in_every_state_and_language(extrawurm):
    """Computer players play whole games; at every state the live message's turn text
    ends with the prompt of that state's phase, in every language, with no raw key."""
    adapter = PickominoAdapter()
    locales = ["en", "de", "es", "fr", "it", "nl", "pl", "pt-BR"]
    seen: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        seats = [Seat(1, "Anne"), Seat(2, "Bob"), Seat(3, "Cara")]
        session = Session("pickomino", 1, 2, 1, seats, id=5, version=1, status=Status.PLAYING)
        session.options = {"extrawurm": extrawurm}
        session.game = adapter.new_game(["1", "2", "3"], session.options, rng)
        game = session.game
        for step in range(3000):
            if game.is_over:
                break
            prompt = what_now(game)
            assert prompt is not None and prompt.key in PROMPTS_OF_PHASE[game.phase]
            seen.add(prompt.key)
            locale = locales[step % len(locales)]
            with with_locale(locale):
                text = render_session(session, PICKOMINO).blocks[0].content  # type: ignore[attr-defined]
                line = what_now_text(prompt, session.name_of, SPECIALIST_MARK)
            assert text.endswith(line) and "{" not in line and "pickomino." not in line
            move = adapter.bot_move(adapter.copy(game), "easy" if step % 2 else "normal")
            session.remember(adapter.play(game, game.current_player, move, rng))
    assert {"pickomino.now.start", "pickomino.now.keep", "pickomino.now.stop"} <= seen


def test_every_prompt_key_is_in_every_catalog():
    keys = {key for phase_keys in PROMPTS_OF_PHASE.values() for key in phase_keys}
    for locale in ["en", "de", "es", "fr", "it", "nl", "pl", "pt-BR"]:
        assert keys <= set(catalog(locale)), locale


@pytest.mark.parametrize("game", ["pickomino", "picker"])
def test_what_now_is_pure(game):
    """The decision reads the engine only: no discord, no i18n (a later coaching line
    words the same prompt otherwise)."""
    source = Path(__file__).resolve().parents[4] / f"bot/games/{game}/render/what_now.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    allowed = (
        "__future__",
        "collections",
        "dataclasses",
        "bot.render.prompt",
        f"bot.games.{game}.engine",
    )
    assert all(str(name).startswith(allowed) for name in imported), imported
