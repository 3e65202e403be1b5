import math
from collections import Counter
from fractions import Fraction
from itertools import product
from math import comb

import pytest

from bot.games.pickomino.ai.rolls import roll_outcomes


@pytest.mark.parametrize("dice", range(9))
def test_each_distinct_roll_once_with_all_the_ways(dice: int) -> None:
    outcomes = roll_outcomes(dice)
    assert len(outcomes) == comb(dice + 5, 5)  # 1,287 for 8 dice
    assert len({outcome.counts for outcome in outcomes}) == len(outcomes)
    assert sum(outcome.ways for outcome in outcomes) == 6**dice
    assert sum(outcome.probability for outcome in outcomes) == pytest.approx(1.0)


@pytest.mark.parametrize("dice", range(1, 5))
def test_ways_match_every_ordered_roll(dice: int) -> None:
    counted = Counter(
        tuple(roll.count(face) for face in range(1, 7))
        for roll in product(range(1, 7), repeat=dice)
    )
    assert {outcome.counts: outcome.ways for outcome in roll_outcomes(dice)} == counted
    for outcome in roll_outcomes(dice):
        assert outcome.probability == float(Fraction(outcome.ways, 6**dice))


def test_eight_dice_have_1287_outcomes() -> None:
    assert len(roll_outcomes(8)) == 1287


def test_nine_dice_have_2002_outcomes() -> None:
    assert len(roll_outcomes(9)) == 2002  # the Golden Die's turn (Extrawurm)
    assert math.fsum(outcome.probability for outcome in roll_outcomes(9)) == pytest.approx(1)


def test_a_roll_has_zero_to_nine_dice() -> None:
    with pytest.raises(ValueError):
        roll_outcomes(10)
