"""The exact optimal play of one turn, by dynamic programming over the turn's states.

A reward table says what stopping gives for each final sum (with a worm kept); a
failure gives `fail`. The value of a state where the player may roll or stop is the
larger of the two; rolling is worth the sum, over the distinct outcomes of the roll,
of their chance times the best state reachable by keeping one of their new faces
(a roll with no new face fails). Values are expected rewards, so for the game's
rewards (Position.rewards) they are expected changes of the player's worm count, and
for 0/1 rewards (odds.py) they are chances.

The values are computed with numpy, every state of a layer at once (batch.py: about
1.3 ms a table); each table's solution is memoized, so every decision of a turn after
the first is a lookup. The rest (a roll's value, the chance of a tile) is worked out
here from those values when asked.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import repeat
from operator import call, mul

from bot.games.pickomino.ai.batch import state_values
from bot.games.pickomino.ai.memo import memoized
from bot.games.pickomino.ai.position import Position
from bot.games.pickomino.ai.rewards import TIE, Rewards
from bot.games.pickomino.ai.states import MAX_TOTAL, RollNode, TurnState, state_graph

NEVER = float("-inf")  # the padding successor's value: never the best choice
SOLUTIONS_KEPT = 256  # about 16 kB each: 4 MB at most, twenty times the turns in progress


class TurnValues:
    """The optimal policy of a turn for one reward table, valued in every state.

    `value(state)` is what the turn is worth from a state where the player chooses
    between rolling and stopping (or where the turn is over), playing optimally.
    Ties go to stopping: a sure reward over an equal expectation (within `TIE`).
    Only these values are stored; the rest is worked out from them when asked.
    """

    __slots__ = ("_chances", "_values", "fail", "rewards")

    def __init__(self, rewards: Rewards, fail: float = 0.0) -> None:
        if len(rewards) != MAX_TOTAL + 1:
            raise ValueError(f"rewards need one entry per sum 0 to {MAX_TOTAL}")
        self.rewards = rewards
        self.fail = fail
        # numpy's pass over the graph (batch.py), five times the speed of walking it here;
        # a plain array of floats after, as the decisions read single values.
        self._values = array("d")
        self._values.frombytes(state_values(rewards, fail).tobytes())
        # What following the policy gives by other ends (the chances of a tile, ...).
        self._chances: dict[object, tuple[list[float], list[float | None]]] = {}

    def value(self, state: TurnState) -> float:
        """Expected reward from `state` with the choice to roll or stop, played best."""
        return self._values[state_graph().index[state]]

    def roll_value(self, state: TurnState) -> float | None:
        """Expected reward of rolling now and playing best after; None if the turn is over."""
        graph = state_graph()
        index = graph.index[state]
        node = graph.roll_of.get(index)
        if node is None:
            return None
        if self._values[index] != self.stop_value(state):
            # The solver rolled here, so the state's value is the roll's, to the last
            # bit: summed again in Python it could differ in the last place.
            return self._values[index]
        return _roll_value(node, self._values, self.fail)

    def stop_value(self, state: TurnState) -> float | None:
        """What stopping now gives; None when stopping is not possible."""
        return self.rewards[state.total] if state.has_worm else None

    def stops(self, state: TurnState) -> bool:
        """True when the best play is to stop (or the turn is over by itself)."""
        stop = self.stop_value(state)
        # A state's value is its stop value exactly when the solver chose to stop.
        return state.is_over or (stop is not None and self.value(state) == stop)

    def reward_chance(self, state: TurnState, totals: frozenset[int] | None = None) -> float:
        """Chance that best play from `state` ends the turn with a reward (a tile).

        With `totals`, only stopping with one of those sums counts (say, the sums
        whose best claim is a steal).
        """
        return self._chance_tables(totals)[0][state_graph().index[state]]

    def roll_reward_chance(
        self, state: TurnState, totals: frozenset[int] | None = None
    ) -> float | None:
        """Chance of ending with a reward when rolling now; None if the turn is over."""
        return self._chance_tables(totals)[1][state_graph().index[state]]

    def expected(self, state: TurnState, rewards: Rewards, fail: float) -> float:
        """What best play from `state` (this table's) gives by other `rewards` and
        `fail` for the same ends: the chance to win when this table values them by
        Hard's blend, say."""
        return self._followed((rewards, fail))[0][state_graph().index[state]]

    def roll_expected(self, state: TurnState, rewards: Rewards, fail: float) -> float | None:
        """The same, rolling now; None if the turn is over."""
        return self._followed((rewards, fail))[1][state_graph().index[state]]

    def _chance_tables(
        self, totals: frozenset[int] | None
    ) -> tuple[list[float], list[float | None]]:
        """How often the policy ends with a reward (with `totals`, with one of those sums)."""
        rewards = tuple(
            None if reward is None else float(totals is None or total in totals)
            for total, reward in enumerate(self.rewards)
        )
        return self._followed((rewards, 0.0), totals)

    def _followed(
        self, ends: tuple[Rewards, float], key: object = None
    ) -> tuple[list[float], list[float | None]]:
        """Follow the policy once more, valuing where it ends by `ends` (rewards per sum
        and the failure's) instead: each state's value so, and rolling's.

        Successors compare as (value, followed value) pairs: the policy's choice, and
        among equal values the one followed to more (a tile likelier, say).
        """
        key = ends if key is None else key
        cached = self._chances.get(key)
        if cached is not None:
            return cached
        rewards, fail = ends
        graph = state_graph()
        states = graph.states

        def ended(state: TurnState) -> float:
            reward = rewards[state.total] if state.has_worm else None
            return fail if reward is None else reward

        # Values rounded to TIE, so that float noise does not break a tie.
        pairs: list[tuple[float, float]] = [(NEVER, 0.0)] * (len(states) + 1)
        followed: list[float] = [0.0] * len(states)
        rolling: list[float | None] = [None] * len(states)
        for i in graph.ended:
            followed[i] = ended(states[i])
            pairs[i] = (round(self._values[i] / TIE), followed[i])
        for node in graph.rolls:
            best = map(max, map(call, node.getters, repeat(pairs)))
            value = node.fail_chance * fail + sum(
                p * pair[1] for p, pair in zip(node.probabilities, best, strict=True)
            )
            if node.single_getter is not None:
                # zip drops the padding's pair at the end of the picked tuple.
                singles = zip(node.single_probabilities, node.single_getter(pairs), strict=False)
                value += sum(p * pair[1] for p, pair in singles)
            rolling[node.state] = value
            if self.stops(states[node.state]):
                value = ended(states[node.state])  # stopping takes the reward of this sum
            followed[node.state] = value
            pairs[node.state] = (round(self._values[node.state] / TIE), value)
        self._chances[key] = (followed, rolling)
        return followed, rolling


def _roll_value(node: RollNode, values: Sequence[float], fail: float) -> float:
    """Expected value of a roll: the best successor of each outcome times its chance.

    The solver's hot loop, kept in C: outcomes with a single new face go in one call.
    """
    best = map(max, map(call, node.getters, repeat(values)))
    roll = node.fail_chance * fail + sum(map(mul, node.probabilities, best))
    if node.single_getter is not None:
        roll += sum(map(mul, node.single_probabilities, node.single_getter(values)))
    return roll


def warm_up() -> None:
    """Build the shared state graph now (about 0.13 s) rather than at the first decision."""
    state_graph()


@memoized(SOLUTIONS_KEPT)
def solve(rewards: Rewards, fail: float = 0.0) -> TurnValues:
    """The solved turn for a reward table (memoized: positions often share one)."""
    return TurnValues(rewards, fail)


def solve_position(position: Position) -> TurnValues:
    """The solved turn of the player to move in `position`."""
    return solve(position.rewards(), position.fail_value)
