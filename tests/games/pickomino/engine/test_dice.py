"""Dice drawing and the fast-built values: same results as the plain definitions."""

from __future__ import annotations

import dataclasses
import pickle
import random
import secrets
from collections import Counter
from itertools import product

import pytest

from bot.games.pickomino.engine import Face, Game, Keep, Kept, Rolled, roll_dice
from bot.games.pickomino.engine.dice import MAX_DICE, POINTS
from bot.games.pickomino.engine.game import _total


class Counting:
    """A random source that returns 0, 1, 2... so every number below `stop` is drawn once."""

    def __init__(self) -> None:
        self.next = 0
        self.stops: list[int] = []

    def randrange(self, stop: int) -> int:
        self.stops.append(stop)
        number, self.next = self.next, self.next + 1
        return number


@pytest.mark.parametrize("count", range(7))
def test_every_number_drawn_once_gives_every_ordered_roll_once(count: int) -> None:
    # So a uniform randrange gives uniform, independent dice.
    source = Counting()
    drawn = Counter(roll_dice(source, count) for _ in range(6**count))
    expected = Counter(tuple(sorted(dice)) for dice in product(Face, repeat=count))
    assert drawn == expected
    assert set(source.stops) == {6**count}


def test_a_roll_is_a_sorted_tuple_of_faces_from_either_random_source() -> None:
    for rng in (random.Random(7), secrets.SystemRandom()):
        for count in range(MAX_DICE + 1):
            dice = roll_dice(rng, count)
            assert type(dice) is tuple and len(dice) == count
            assert all(type(face) is Face for face in dice) and list(dice) == sorted(dice)


def test_a_roll_of_more_dice_than_there_are_is_refused() -> None:
    # Nine with the Extrawurm Golden Die, never more.
    with pytest.raises(ValueError):
        roll_dice(random.Random(1), MAX_DICE + 1)


def test_nine_dice_roll_every_face_count_evenly() -> None:
    rng = random.Random(5)
    counts = Counter(face for _ in range(2000) for face in roll_dice(rng, MAX_DICE))
    assert all(2700 < counts[face] < 3300 for face in Face)  # 3000 each expected


def test_faces_show_up_evenly() -> None:
    rng = random.Random(3)
    counts = Counter(face for _ in range(3000) for face in roll_dice(rng, 8))
    assert all(3600 < counts[face] < 4400 for face in Face)  # 4000 each expected


def test_the_kept_total_counts_a_worm_as_five() -> None:
    for kept in product(Face, repeat=3):
        assert _total(list(kept)) == sum(POINTS[face] for face in kept)
    game = Game.from_position(
        ["anne", "bob"], grill=range(21, 37), kept=[Face.WORM, Face.WORM, Face.THREE]
    )
    assert game.kept_total == 13 and type(game.kept_total) is int


def test_fast_built_values_stay_frozen_dataclasses() -> None:
    kept = Kept("anne", Face.FOUR, 2, 10)
    assert kept == Kept(player="anne", face=Face.FOUR, count=2, total=10)
    assert hash(kept) == hash(Kept("anne", Face.FOUR, 2, 10))
    assert repr(kept) == "Kept(player='anne', face=<Face.FOUR: 4>, count=2, total=10)"
    assert pickle.loads(pickle.dumps(kept)) == kept
    assert dataclasses.replace(kept, count=3).count == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        kept.count = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        Rolled("anne")  # type: ignore[call-arg]
    match Keep(Face.WORM):
        case Keep(face):
            assert face is Face.WORM
