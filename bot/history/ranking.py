"""The one way a place is counted, for every game and page: equal results share a
place and the next place skips as many (1, 2, 2, 4: standard competition ranking).
The end screens (through each engine's standings), the games' stored ranks and the
leaderboards all count places with `shared_ranks`, so a shared 2nd place reads the
same everywhere."""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def shared_ranks(results: Sequence[Hashable]) -> list[int]:
    """The place of each result, `results` best first; equal results share a place."""
    ranks: list[int] = []
    for position, result in enumerate(results):
        shares = position > 0 and result == results[position - 1]
        ranks.append(ranks[-1] if shares else position + 1)
    return ranks
