"""An independent exact solver for tests: ordered rolls, Fractions, no shared code.

It knows nothing of the production solver's state graph or merged outcomes: it
enumerates all 6**n ordered rolls and plays every choice, so it is only fit for a
few dice left.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import product

WORM = 6
POINTS = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, WORM: 5}

Reward = Callable[[int], Fraction | None]  # final sum (with a worm kept) -> reward


def best_value(kept: tuple[int, ...], reward: Reward, fail: Fraction = Fraction(0)) -> Fraction:
    """Expected reward of optimal play with `kept` dice and the choice to roll or stop."""

    @cache
    def value(kept: tuple[int, ...]) -> Fraction:
        stop = reward(sum(POINTS[face] for face in kept)) if WORM in kept else None
        left = 8 - len(kept)
        if left == 0 or len(set(kept)) == 6:
            return fail if stop is None else stop
        total = Fraction(0)
        for dice in product(range(1, 7), repeat=left):
            new = set(dice) - set(kept)
            if not new:
                total += fail
                continue
            total += max(value(tuple(sorted(kept + (face,) * dice.count(face)))) for face in new)
        roll = total / 6**left
        return roll if stop is None else max(stop, roll)

    return value(tuple(sorted(kept)))


def at_least(tile: int) -> Reward:
    return lambda total: Fraction(1) if total >= tile else None


def exactly(tile: int) -> Reward:
    return lambda total: Fraction(1) if total == tile else None
