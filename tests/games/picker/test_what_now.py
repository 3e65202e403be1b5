"""Picker's "what now" line: in every state of a round's draft the player to move is
told what to keep and why (the round's lowest number, their colour sets, the last die)."""

from __future__ import annotations

import random

import pytest

from bot.games.picker.engine import Colour, Game, Pick, RollDice
from bot.games.picker.render.what_now import what_now
from bot.games.picker.render.what_now_words import what_now_text
from bot.i18n import catalog, with_locale
from tests.games.picker.helpers import random_step, seats

NAMES = {"anne": "Anne", "bob": "Bob", "cara": "Cara"}
RED, ORANGE, YELLOW = Colour.RED, Colour.ORANGE, Colour.YELLOW


def _words(game: Game, locale: str) -> str:
    prompt = what_now(game)
    assert prompt is not None
    with with_locale(locale):
        return what_now_text(prompt, NAMES.__getitem__)


def _game(*rounds: tuple[tuple[int, int, int], list[Colour]]) -> Game:
    game = Game(seats(3))
    for dice, picks in rounds:
        game.apply(RollDice(dice))
        for colour in picks:
            game.apply(Pick(colour))
    return game


FIRST_ROUND = ((4, 1, 6), [ORANGE, RED, YELLOW])  # Anne keeps the 1: she keeps first next

STATES = [
    (
        _game(((4, 1, 6), [])),
        "picker.now.lowest",
        "Keep one die. A 1 makes you the Picker: you keep first next round.",
        "Behalte einen Würfel. Eine 1 macht dich zum Picker: Du wählst nächste Runde zuerst.",
    ),
    (
        _game(((4, 1, 6), [ORANGE])),
        "picker.now.picker",
        "Keep one die. Anne is the Picker: they keep first next round.",
        "Behalte einen Würfel. Anne ist Picker und wählt nächste Runde zuerst.",
    ),
    (
        _game(((4, 1, 6), [ORANGE, RED])),
        "picker.now.last",
        "Keep the last die: 🟡**6**.",
        "Behalte den letzten Würfel: 🟡**6**.",
    ),
    (  # round 2, Anne first: her orange die is on the table again
        _game(FIRST_ROUND, ((2, 5, 3), [])),
        "picker.now.lowest.bonus",
        "Keep one die (🟠: colour bonus). A 2 makes you the Picker: you keep first next round.",
        "Behalte einen Würfel (🟠: Farbbonus). Eine 2 macht dich zum Picker: "
        "Du wählst nächste Runde zuerst.",
    ),
    (  # Anne keeps the 2; Bob's red die (kept in round 1) is on the table
        _game(FIRST_ROUND, ((5, 2, 3), [ORANGE])),
        "picker.now.picker.bonus",
        "Keep one die (🔴: colour bonus). Anne keeps first next round.",
        "Behalte einen Würfel (🔴: Farbbonus). Anne wählt nächste Runde zuerst.",
    ),
]


@pytest.mark.parametrize(("game", "key", "english", "german"), STATES, ids=[s[1] for s in STATES])
def test_every_state_of_the_draft_has_its_prompt(game, key, english, german):
    prompt = what_now(game)
    assert prompt is not None and prompt.key == key
    assert _words(game, "en") == english
    assert _words(game, "de") == german


def test_random_games_have_a_prompt_whenever_someone_keeps():
    keys = {
        "picker.now.lowest",
        "picker.now.lowest.bonus",
        "picker.now.picker",
        "picker.now.picker.bonus",
        "picker.now.last",
    }
    for locale in ["en", "de", "es", "fr", "it", "nl", "pl", "pt-BR"]:
        assert keys <= set(catalog(locale))
    seen = set()
    rng = random.Random(3)
    for players in (3, 5, 8):
        game = Game(seats(players))
        while not game.is_over:
            prompt = what_now(game)
            if game.legal_actions().can_roll:
                assert prompt is None
            else:
                assert prompt is not None and prompt.key in keys
                seen.add(prompt.key)
                with with_locale("pl"):
                    line = what_now_text(prompt, str)
                assert "{" not in line and "picker." not in line
            random_step(game, rng)
    assert seen == keys
    assert what_now(game) is None  # the game is over
