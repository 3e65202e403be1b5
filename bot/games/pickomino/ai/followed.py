"""The value of a whole turn to someone other than the player who plays it, for many
reward tables at once: the next player's answer as the player who just moved sees it.

batch.py values a turn for the player who plays it, which with two players is all the
look-ahead needs (what one gains the other loses). With more players it is not: the
next player plays their turn for their own chance to win, and what the player who just
moved wants is their own chance after it. This module walks batch.py's graph once more,
every decision taken as the player to move would (the best keep by their values;
stopping unless rolling gains more than TIE, as solver.py), and carries a second table,
the onlooker's reward for each end, along those decisions. batch.py is untouched: the
base game's Hard keeps reading it as it was measured. Used by Extrawurm Hard's
four-player look-ahead (extrawurm.NEXT_ANSWERS), measured and left off: no gain.
"""

from __future__ import annotations

import numpy as np

from bot.games.pickomino.ai.batch import FloatArray, _graph
from bot.games.pickomino.ai.rewards import TIE, Rewards
from bot.games.pickomino.ai.states import MAX_TOTAL

Table = tuple[Rewards, float]
"""Per final sum what stopping gives (None: no tile), and what a failure gives."""


def _rewards(tables: list[Table]) -> tuple[FloatArray, FloatArray]:
    rewards = np.array(
        [[np.nan if reward is None else reward for reward in table] for table, _ in tables],
        dtype=np.float64,
    ).T  # (sums, tables)
    if rewards.shape[0] != MAX_TOTAL + 1:
        raise ValueError(f"rewards need one entry per sum 0 to {MAX_TOTAL}")
    return rewards, np.array([fail for _, fail in tables], dtype=np.float64)


def followed_start_values(played: list[Table], onlooker: list[Table]) -> FloatArray:
    """For each pair of tables, the onlooker's expected reward from the start of a turn
    played best for `played` (the mover's rewards); the two tables of a pair share
    their ends: a sum the mover can stop with is one the onlooker has a reward for."""
    if len(played) != len(onlooker):
        raise ValueError("one onlooker table per played table")
    graph = _graph()
    count = len(played)
    rewards, fails = _rewards(played)
    seen, seen_fails = _rewards(onlooker)
    values = np.full((graph.size, count), -np.inf)
    follow = np.full((graph.size, count), -np.inf)
    stop = rewards[graph.ended_totals]
    stop[~graph.ended_has_worm] = np.nan
    taken = ~np.isnan(stop)
    values[graph.ended] = np.where(taken, stop, fails)
    follow[graph.ended] = np.where(taken, seen[graph.ended_totals], seen_fails)
    for layer in graph.layers:
        best = np.empty((len(layer.probabilities), count))
        best_seen = np.empty((len(layer.probabilities), count))
        for width in layer.widths:
            # Keep the face the player to move values most (the first on a tie, as
            # max does), column by column: whole rows, gathered fast.
            successors = width.successors
            kept = values[successors[:, 0]]
            kept_seen = follow[successors[:, 0]]
            for column in range(1, successors.shape[1]):
                other = values[successors[:, column]]
                better = other > kept
                kept = np.where(better, other, kept)
                kept_seen = np.where(better, follow[successors[:, column]], kept_seen)
            best[width.order] = kept
            best_seen[width.order] = kept_seen
        chances = layer.probabilities[:, None]
        roll = np.add.reduceat(best * chances, layer.starts, axis=0)
        roll_seen = np.add.reduceat(best_seen * chances, layer.starts, axis=0)
        roll += layer.fail_chance[:, None] * fails
        roll_seen += layer.fail_chance[:, None] * seen_fails
        stop = rewards[layer.totals]
        stop[~layer.has_worm] = np.nan
        stops = stop >= roll - TIE  # NaN compares false: no reward means rolling on
        values[layer.states] = np.where(stops, stop, roll)
        follow[layer.states] = np.where(stops, seen[layer.totals], roll_seen)
    return follow[graph.start]
