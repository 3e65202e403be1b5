"""The exact distribution of a roll: every distinct outcome once, with its odds.

Eight dice have 6**8 = 1,679,616 ordered results but only 1,287 distinct ones (which
faces show, and how many of each); nine dice (Extrawurm's Golden Die) have 2,002. The
outcome with counts c1..c6 comes up in n! / (c1! ... c6!) of the ordered results, so
it has that many "ways".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import factorial

from bot.games.pickomino.engine.dice import MAX_DICE, Face

FACES = len(Face)


@dataclass(frozen=True, slots=True)
class RollOutcome:
    """One distinct roll: how many dice show each face, and how often it comes up."""

    counts: tuple[int, ...]  # dice per face, index 0 for a 1 ... index 5 for the worm
    ways: int  # the ordered results that give these counts, out of 6**dice
    probability: float

    def count(self, face: Face) -> int:
        return self.counts[face - 1]


@cache
def roll_outcomes(dice: int) -> tuple[RollOutcome, ...]:
    """Every distinct roll of `dice` dice with its exact number of ways (computed once)."""
    if not 0 <= dice <= MAX_DICE:
        raise ValueError(f"a roll has 0 to {MAX_DICE} dice, not {dice}")
    total_ways = FACES**dice
    outcomes = []
    for counts in _compositions(dice, FACES):
        ways = factorial(dice)
        for count in counts:
            ways //= factorial(count)
        outcomes.append(RollOutcome(counts, ways, ways / total_ways))
    return tuple(outcomes)


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to write `total` as `parts` ordered counts of zero or more."""
    if parts == 1:
        return [(total,)]
    return [
        (first, *rest)
        for first in range(total, -1, -1)
        for rest in _compositions(total - first, parts - 1)
    ]
