"""Hard reads its opponents from the record: each keep with the dice it was made from,
and which rule (Normal or greedy) the telling keeps follow."""

from __future__ import annotations

import random

import pytest

from benchmarks.support.picker_opponents import greedy
from bot.games.picker.ai import Level, decide
from bot.games.picker.ai.reading import PRIOR_GREEDY, greedy_chances, keeps
from bot.games.picker.engine import Colour, Game, Pick
from bot.games.picker.engine.colours import COLOUR_INDEX
from tests.games.picker.helpers import pick_all, seats

RED, ORANGE, YELLOW = Colour.RED, Colour.ORANGE, Colour.YELLOW


@pytest.mark.parametrize("seed", range(12))
def test_the_keeps_read_from_the_record_are_the_keeps_made(seed: int) -> None:
    rng = random.Random(seed)
    count = 3 + seed % 6
    game = Game(seats(count), first=rng.randrange(count))
    made = []
    while not game.is_over and game.round < 2 * count - 1:
        if game.legal_actions().can_roll:
            game.roll_with(rng)
            continue
        assert game.dice is not None
        available = [COLOUR_INDEX[colour] for colour in game.available()]
        colour = rng.choice(game.available())
        if len(available) > 1:
            made.append((game.round, game.current, game.dice, sorted(available), colour))
        game.apply(Pick(colour))
    read = [(k.seat, k.dice, sorted(k.available), k.chosen) for k in keeps(game)]
    expected = [(seat, dice, av, COLOUR_INDEX[colour]) for _, seat, dice, av, colour in made]
    assert read  # the order of most rounds is fixed by the record
    assert all(keep in expected for keep in read)  # rounds left out are only the unsure ones
    assert read == [keep for keep in expected if keep in read]


def test_no_record_leaves_the_prior() -> None:
    assert greedy_chances(Game(seats(4))) == [pytest.approx(PRIOR_GREEDY)] * 4


def test_a_keep_for_the_colour_bonus_reads_as_greedy_one_for_the_number_as_normal() -> None:
    game = Game(seats(3))  # anne keeps first
    pick_all(game, [4, 2, 1], [RED, ORANGE, YELLOW])  # anne kept red; cara is the Picker
    # Round 2, cara first: she takes the 1; anne then keeps the red 4 (4 + 3 for her
    # colour) over the orange 5: greedy's keep, not Normal's. Bob has no choice left.
    pick_all(game, [4, 5, 1], [YELLOW, RED, ORANGE])
    chances = greedy_chances(game)
    assert chances[0] > 0.8
    assert chances[1] == pytest.approx(PRIOR_GREEDY)
    game = Game(seats(3))
    pick_all(game, [4, 2, 1], [RED, ORANGE, YELLOW])
    pick_all(game, [4, 5, 1], [YELLOW, ORANGE, RED])  # anne keeps the 5: Normal's keep
    assert greedy_chances(game)[0] < 0.2


def test_greedy_players_are_read_as_greedy() -> None:
    rng = random.Random(3)
    game = Game(seats(5))
    while not game.is_over:
        if game.legal_actions().can_roll:
            game.roll_with(rng)
        elif game.current == 0:
            game.apply(decide(game, Level.NORMAL, rng))
        else:
            game.apply(Pick(greedy(game, rng)))
    chances = greedy_chances(game)
    assert chances[0] < 0.1
    assert all(chance > 0.85 for chance in chances[1:])
