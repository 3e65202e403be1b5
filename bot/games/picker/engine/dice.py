"""Rolling: one six-sided die per colour in play, with an injected random source."""

from __future__ import annotations

from typing import Protocol

FACES = 6
DIE_VALUES = frozenset(range(1, FACES + 1))


class RandomSource(Protocol):
    """The part of random.Random the engine needs; secrets.SystemRandom fits too."""

    def random(self) -> float: ...


def roll_dice(rng: RandomSource, count: int) -> tuple[int, ...]:
    """Roll `count` dice, in colour order (the roll is not sorted: each die is a colour)."""
    draw = rng.random
    return tuple([int(draw() * FACES) + 1 for _ in range(count)])


def all_equal(values: tuple[int, ...]) -> bool:
    """True when every die shows the same number: the rules roll them all again then."""
    return values.count(values[0]) == len(values)
