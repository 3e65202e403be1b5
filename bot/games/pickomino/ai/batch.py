"""The value of a whole turn for reward tables, with numpy: one table or many at once.

The turn's dynamic programme (solver.py's docstring says it) runs as one array
operation per outcome width and dice count, for every table at once. One table takes
about 1.3 ms, where walking the graph in Python took about 6: solver.py's TurnValues
gets its values here (`state_values`). Hard's look-ahead (position.py's
`_after_answers`) needs the opponent's best answer to every way its own turn can end,
some 18 tables per decision, and only the value from the turn's start: `start_values`
solves them together in about the time of one. Ties break as solver.py says (stopping,
unless rolling gains more than TIE).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from bot.games.pickomino.ai.rewards import TIE, Rewards
from bot.games.pickomino.ai.states import MAX_TOTAL, TurnState, state_graph

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]


@dataclass(frozen=True, slots=True)
class _Width:
    """The outcomes of one layer whose roll shows `successors.shape[1]` new faces."""

    order: IndexArray  # where each outcome goes among the layer's outcomes
    successors: IndexArray  # (outcomes, width): the states keeping each new face reaches


@dataclass(frozen=True, slots=True)
class _Layer:
    """The rolls from every state with the same number of dice left.

    Keeping a die always lowers the dice left, so a layer's successors are all valued
    before it, as solver.py's order guarantees too.
    """

    states: IndexArray  # the rolling states
    totals: IndexArray
    has_worm: npt.NDArray[np.bool_]
    fail_chance: FloatArray
    starts: IndexArray  # each state's first outcome among the layer's outcomes
    probabilities: FloatArray  # the outcomes, grouped by state
    widths: tuple[_Width, ...]


@dataclass(frozen=True, slots=True)
class _Graph:
    ended: IndexArray
    ended_totals: IndexArray
    ended_has_worm: npt.NDArray[np.bool_]
    layers: tuple[_Layer, ...]
    size: int  # states plus the padding
    start: int


def by_width(successors: Sequence[tuple[int, ...]]) -> list[tuple[IndexArray, IndexArray]]:
    """A layer's outcomes grouped by how many new faces each shows, fewest first: per
    width, where each outcome goes among the layer's outcomes and its successors
    (an array of outcomes × width)."""
    grouped = []
    for width in sorted({len(targets) for targets in successors}):
        order = [i for i, targets in enumerate(successors) if len(targets) == width]
        grouped.append(
            (
                np.array(order, dtype=np.intp),
                np.array([successors[i] for i in order], dtype=np.intp),
            )
        )
    return grouped


@cache
def _graph() -> _Graph:
    graph = state_graph()
    states = graph.states
    by_dice: dict[int, list[int]] = {}
    for position, node in enumerate(graph.rolls):
        by_dice.setdefault(states[node.state].dice_left, []).append(position)
    layers = []
    for dice in sorted(by_dice):
        nodes = [graph.rolls[position] for position in by_dice[dice]]
        probabilities: list[float] = []
        successors: list[tuple[int, ...]] = []
        starts = []
        for node in nodes:
            starts.append(len(probabilities))
            probabilities += node.single_probabilities
            successors += [(target,) for target in node.single_successors]
            probabilities += node.probabilities
            successors += node.successors
        widths = [_Width(order, targets) for order, targets in by_width(successors)]
        layers.append(
            _Layer(
                states=np.array([node.state for node in nodes], dtype=np.intp),
                totals=np.array([node.total for node in nodes], dtype=np.intp),
                has_worm=np.array([node.has_worm for node in nodes], dtype=np.bool_),
                fail_chance=np.array([node.fail_chance for node in nodes]),
                starts=np.array(starts, dtype=np.intp),
                probabilities=np.array(probabilities),
                widths=tuple(widths),
            )
        )
    ended = [states[i] for i in graph.ended]
    return _Graph(
        ended=np.array(graph.ended, dtype=np.intp),
        ended_totals=np.array([state.total for state in ended], dtype=np.intp),
        ended_has_worm=np.array([state.has_worm for state in ended], dtype=np.bool_),
        layers=tuple(layers),
        size=graph.padding + 1,
        start=graph.index[TurnState.start()],
    )


def warm_up() -> None:
    """Build the arrays now (about 15 ms, after solver.warm_up) rather than at a decision."""
    _graph()


def start_values(tables: list[tuple[Rewards, float]]) -> FloatArray:
    """The value of a turn from its start, played best, for each (rewards, fail) table.

    `rewards` are per final sum as in solver.py (None where stopping takes nothing).
    """
    return _values(tables)[_graph().start]


def state_values(rewards: Rewards, fail: float) -> FloatArray:
    """The value of every state of the turn for one table, indexed as the state graph
    (states.py) indexes them, its padding last at minus infinity."""
    return _values([(rewards, fail)])[:, 0]


def _values(tables: list[tuple[Rewards, float]]) -> FloatArray:
    """Every state's value (states × tables): the dynamic programme itself."""
    graph = _graph()
    count = len(tables)
    rewards = np.array(
        [[np.nan if reward is None else reward for reward in table] for table, _ in tables]
    ).T  # (sums, tables)
    if rewards.shape[0] != MAX_TOTAL + 1:
        raise ValueError(f"rewards need one entry per sum 0 to {MAX_TOTAL}")
    fails = np.array([fail for _, fail in tables])
    values = np.full((graph.size, count), -np.inf)
    stop = rewards[graph.ended_totals]
    stop[~graph.ended_has_worm] = np.nan
    values[graph.ended] = np.where(np.isnan(stop), fails, stop)
    for layer in graph.layers:
        best = np.empty((len(layer.probabilities), count))
        for width in layer.widths:
            best[width.order] = values[width.successors].max(axis=1)
        best *= layer.probabilities[:, None]
        roll = np.add.reduceat(best, layer.starts, axis=0)
        roll += layer.fail_chance[:, None] * fails
        stop = rewards[layer.totals]
        stop[~layer.has_worm] = np.nan
        # NaN compares false: no reward means rolling on, as in solver.py.
        values[layer.states] = np.where(stop >= roll - TIE, stop, roll)
    return values


def _table_array(tables: Sequence[Rewards]) -> FloatArray:
    """Reward tables as an array (sums, tables), NaN where stopping takes nothing."""
    return np.array(
        [[np.nan if reward is None else reward for reward in table] for table in tables]
    ).T


def followed_start_values(
    policies: list[tuple[Rewards, float]], valued: list[tuple[Rewards, float]]
) -> FloatArray:
    """For each policy table, what the turn played best for it gives, from the turn's
    start, by the `valued` table beside it for the same ends (a reward at the same sums):
    another player's worth of that turn (a mover's standing after the next player's
    turn, say).

    One pass computes the policy's values and, beside them, the valued tables' along the
    policy's choices: the successor with the higher value (the first of equals), and
    stopping as solver.py stops (unless rolling gains more than TIE)."""
    graph = _graph()
    count = len(policies)
    rewards = _table_array([table for table, _ in policies])
    if rewards.shape[0] != MAX_TOTAL + 1:
        raise ValueError(f"rewards need one entry per sum 0 to {MAX_TOTAL}")
    fails = np.array([fail for _, fail in policies])
    other = _table_array([table for table, _ in valued])
    other_fails = np.array([fail for _, fail in valued])
    values = np.full((graph.size, count), -np.inf)
    followed = np.zeros((graph.size, count))
    columns = np.arange(count)
    stop = rewards[graph.ended_totals]
    stop[~graph.ended_has_worm] = np.nan
    values[graph.ended] = np.where(np.isnan(stop), fails, stop)
    mine = other[graph.ended_totals]
    mine[~graph.ended_has_worm] = np.nan
    followed[graph.ended] = np.where(np.isnan(mine), other_fails, mine)
    for layer in graph.layers:
        outcomes = len(layer.probabilities)
        best = np.empty((outcomes, count))
        best_followed = np.empty((outcomes, count))
        for width in layer.widths:
            first = width.successors[:, 0]
            top = values[first]
            if width.successors.shape[1] == 1:
                best[width.order] = top
                best_followed[width.order] = followed[first]
                continue
            chosen = np.broadcast_to(first[:, None], top.shape)
            for column in range(1, width.successors.shape[1]):
                successor = width.successors[:, column]
                candidate = values[successor]
                better = candidate > top
                top = np.where(better, candidate, top)
                chosen = np.where(better, successor[:, None], chosen)
            best[width.order] = top
            best_followed[width.order] = followed[chosen, columns]
        chances = layer.probabilities[:, None]
        roll = np.add.reduceat(best * chances, layer.starts, axis=0)
        roll += layer.fail_chance[:, None] * fails
        roll_followed = np.add.reduceat(best_followed * chances, layer.starts, axis=0)
        roll_followed += layer.fail_chance[:, None] * other_fails
        stop = rewards[layer.totals]
        stop[~layer.has_worm] = np.nan
        stopping = stop >= roll - TIE  # NaN compares false: no reward means rolling on
        values[layer.states] = np.where(stopping, stop, roll)
        followed[layer.states] = np.where(stopping, other[layer.totals], roll_followed)
    return followed[graph.start]
