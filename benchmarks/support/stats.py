"""The statistics the benchmarks print: confidence intervals of win shares, percentiles."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from typing import Protocol

Z_95 = 1.959964  # the normal quantile of a two-sided 95% interval


class Placed(Protocol):
    """A player's end position, as the games' standings give it."""

    @property
    def rank(self) -> int: ...

    @property
    def player(self) -> str: ...


def wilson(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (a shared win counts as a
    fraction, so successes need not be whole)."""
    rate = successes / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    return centre - half / denominator, centre + half / denominator


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie (nearest rank, no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def mean_interval(values: list[float], z: float = Z_95) -> tuple[float, float]:
    """The normal-approximation interval of the mean of independent `values` (a deal's
    mean share, say), from their sample standard deviation."""
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values, mean) / math.sqrt(len(values))
    return mean - half, mean + half


def deal_interval(deals: list[float]) -> tuple[float, float]:
    """The 95% interval of a share from its deals' means: `mean_interval`, or the
    whole range 0 to 1 while a single deal gives no spread to read."""
    return mean_interval(deals) if len(deals) > 1 else (0.0, 1.0)


def ratio_interval(
    successes: list[float], trials: list[int], z: float = Z_95
) -> tuple[float, float]:
    """The 95% interval of sum(successes) / sum(trials) when each game gives several
    trials that are not independent (every pair of seats at one table): the ratio's
    normal approximation over games (the delta method), within 0 to 1; 0 to 1 for a
    single game."""
    games = len(trials)
    if games < 2:
        return 0.0, 1.0
    total = sum(trials)
    ratio = sum(successes) / total
    spread = sum((done - ratio * tried) ** 2 for done, tried in zip(successes, trials, strict=True))
    half = z * math.sqrt(spread * games / (games - 1)) / total
    return max(0.0, ratio - half), min(1.0, ratio + half)


def first_place_share(standings: Iterable[Placed], player: str) -> float:
    """`player`'s share of first place: 1 for a win, 1/k for a first place shared by k,
    else 0."""
    winners = [standing.player for standing in standings if standing.rank == 1]
    return 1 / len(winners) if player in winners else 0.0


def opponents_beaten(standings: Iterable[Placed], player: str) -> float:
    """The share of `player`'s opponents who finished below them (one sharing their
    place counts half)."""
    ranks = {standing.player: standing.rank for standing in standings}
    mine = ranks.pop(player)
    if not ranks:
        return 0.0
    return sum((rank > mine) + 0.5 * (rank == mine) for rank in ranks.values()) / len(ranks)


def deal_means(shares: list[float], seats: int) -> list[float]:
    """Each deal's mean share, a deal being `seats` consecutive games (one from every
    seat): the independent values of a paired benchmark."""
    return [sum(shares[i : i + seats]) / seats for i in range(0, len(shares), seats)]
