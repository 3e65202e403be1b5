"""How often the optimal play of an Extrawurm turn ends with a tile, with numpy.

A hint shows, for each choice open, the chance that best play after it takes a tile
(and a steal). extrawurm_solver.py values the turn; this module follows the policy it
found once more over the whole graph, a layer of states with the same dice left at a
time (their successors are all in earlier layers), with array operations: about 5 ms
a hint, where the walk in Python took 20 to 30 ms per table and a hint needed two to four.

The policy is the solver's: at each roll outcome the successor of highest value, and
among equal values (rounded to TIE) the one likelier to end with a tile; with the
Weasel unused, the roll again when it is worth more (second layer, `weasel`). Every
filter of claim totals (all tiles, the steals) is a column, each breaking its ties
by its own chance, as the walk did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.games.pickomino.ai.batch import FloatArray, IndexArray, by_width
from bot.games.pickomino.ai.rewards import TIE


@dataclass(frozen=True, slots=True)
class _Width:
    order: IndexArray  # where each outcome goes among the layer's outcomes
    successors: IndexArray  # (outcomes, width): value-array slots, twins included
    rows: IndexArray  # 0 to outcomes - 1, to pick one successor per row


@dataclass(frozen=True, slots=True)
class _Layer:
    states: IndexArray  # the rolling states of one count of dice left
    fail_chance: FloatArray
    starts: IndexArray  # each state's first outcome
    owners: IndexArray  # each outcome's state
    probabilities: FloatArray
    widths: tuple[_Width, ...]


@dataclass(frozen=True, slots=True)
class Layers:
    """A turn's graph laid out for array operations (extrawurm_solver builds it once
    per dice count with `layers`)."""

    ended: IndexArray
    layers: tuple[_Layer, ...]
    claim_totals: IndexArray  # each state's claim total (its sum, + 5 with the can)


Roll = tuple[int, int, float, Sequence[float], Sequence[tuple[int, ...]]]
"""A state's roll: dice left, the state, the chance of no new face, and each outcome's
chance and the value-array slots its keeps reach."""


def layers(ended: Sequence[int], rolls: Sequence[Roll], claim_totals: Sequence[int]) -> Layers:
    """Group the rolls by dice left, fewest first: a layer's successors come before it."""
    by_dice: dict[int, list[Roll]] = {}
    for roll in rolls:
        by_dice.setdefault(roll[0], []).append(roll)
    built = []
    for left in sorted(by_dice):
        nodes = by_dice[left]
        probabilities: list[float] = []
        successors: list[tuple[int, ...]] = []
        starts = []
        for _, _, _, chances, targets in nodes:
            starts.append(len(probabilities))
            probabilities += chances
            successors += targets
        widths = [
            _Width(order, targets, np.arange(len(order), dtype=np.intp))
            for order, targets in by_width(successors)
        ]
        states = [node[1] for node in nodes]
        built.append(
            _Layer(
                states=np.array(states, dtype=np.intp),
                fail_chance=np.array([node[2] for node in nodes]),
                starts=np.array(starts, dtype=np.intp),
                owners=np.repeat(states, np.diff([*starts, len(probabilities)])).astype(np.intp),
                probabilities=np.array(probabilities),
                widths=tuple(widths),
            )
        )
    return Layers(
        np.array(ended, dtype=np.intp), tuple(built), np.array(claim_totals, dtype=np.intp)
    )


@dataclass(frozen=True, slots=True)
class PolicyChances:
    """Per filter (rows) and state (columns): the chance best play from the state ends
    with a tile counted by the filter, choosing freely (`chances`) or rolling now
    (`rolling`, 0 where the turn is over)."""

    chances: FloatArray
    rolling: FloatArray


Filters = tuple[frozenset[int] | None, ...]
"""Which claim totals count as a hit, per column (None: every tile)."""


def policy_chances(
    graph: Layers,
    values: Sequence[float],
    stops: Sequence[float | None],
    filters: Filters,
    fail: float,
    again: tuple[Sequence[float], FloatArray] | None = None,
) -> PolicyChances:
    """Follow the policy of one solved layer of a turn over `graph`, counting how often
    it ends with a tile a filter counts (`followed`'s ends: 1 for such a stop, else 0).

    `values` is the solver's value array ([states][twins][scratch][padding]), `stops`
    each state's stop value (None where stopping takes nothing). With `again` (the
    roll values and the rolling chances of the plain layer) the Weasel is unused: each
    outcome, and a roll with no new face, may be rolled again.
    """
    can_stop = np.array([value is not None for value in stops])
    hits = np.stack(
        [
            can_stop & (True if kept is None else np.isin(graph.claim_totals, list(kept)))
            for kept in filters
        ]
    ).astype(np.float64)  # (filters, states): one row per filter, each read whole
    none = np.zeros(len(filters))
    return followed(graph, values, stops, hits, none, none, fail, again)


def followed(
    graph: Layers,
    values: Sequence[float],
    stops: Sequence[float | None],
    ends: FloatArray,
    fails: FloatArray,
    bonuses: FloatArray,
    fail: float,
    again: tuple[Sequence[float], FloatArray] | None = None,
) -> PolicyChances:
    """Follow the policy of one solved layer of a turn over `graph`, valuing where it
    ends by other values from 0 to 1: per column (rows of `ends`, by state), what
    stopping in a state gives, `fails`' the failure, and `bonuses`' what the Bratwurm
    for 1s adds (to the rest of the turn after that keep: the twin states). `fail` is
    the solver's own value of a failure, for its choices; the rest as `policy_chances`.

    A choice is ranked by its value rounded to TIE, then its followed value: the two
    in one number, key + followed / 2 (keys are whole numbers, so a higher key always
    wins).
    """
    size = len(stops)
    stop = np.array([np.nan if value is None else value for value in stops])
    can_stop = ~np.isnan(stop)
    solved = np.asarray(values, dtype=np.float64)
    stopping = can_stop & (solved[:size] == stop)  # the solver's own test of a stop
    keys = np.round(solved / TIE)
    keys[2 * size] = -np.inf  # the scratch slot is the solver's, not a state
    columns = len(fails)
    chances = np.zeros((columns, 2 * size + 2))
    rolling = np.zeros((columns, size))
    at_end = np.where(can_stop[graph.ended], ends[:, graph.ended], fails[:, None])
    chances[:, graph.ended] = at_end
    chances[:, size + graph.ended] = at_end + bonuses[:, None]
    ranks = keys + chances / 2
    again_ranks = again_chances = None
    if again is not None:
        again_chances = again[1]
        again_ranks = np.round(np.asarray(again[0], dtype=np.float64) / TIE) + again_chances / 2
    fail_rank = round(fail / TIE)
    for layer in graph.layers:
        states, twins = layer.states, size + layer.states
        for column in range(columns):
            rank, chance_of = ranks[column], chances[column]
            best = np.empty(len(layer.probabilities))
            best_ranks = np.empty_like(best)
            for width in layer.widths:
                among = rank[width.successors]  # (outcomes, width)
                picked = width.successors[width.rows, among.argmax(axis=1)]
                best_ranks[width.order] = rank[picked]
                best[width.order] = chance_of[picked]
            if again_ranks is not None:
                assert again_chances is not None
                owners = layer.owners
                other = again_ranks[column, owners] > best_ranks
                best = np.where(other, again_chances[column, owners], best)
            roll = np.add.reduceat(best * layer.probabilities, layer.starts)
            if again_ranks is not None:
                assert again_chances is not None
                rescued = again_ranks[column, states] > fail_rank
                rescue = np.where(rescued, again_chances[column, states], fails[column])
                roll += layer.fail_chance * rescue
            else:
                roll += layer.fail_chance * fails[column]
            rolling[column, states] = roll
            chance = np.where(stopping[states], ends[column, states], roll)
            chance_of[states] = chance
            chance_of[twins] = chance + bonuses[column]
            rank[states] = keys[states] + chance / 2
            rank[twins] = keys[twins] + chance_of[twins] / 2
    return PolicyChances(chances[:, :size], rolling)
