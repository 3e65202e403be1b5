"""The exact optimal play of one Extrawurm turn: eight or nine dice, the Canned Worm,
the Bratwurm for two or more 1s, and the Weasel as a decision after each roll.

The base solver (solver.py) values a turn from its reward per final sum. An Extrawurm
turn adds four things, all handled here over a state graph built per dice count:

- **Nine dice** for the Golden Die's holder: a graph of 9 dice (2,727 states, 61,000
  merged outcomes, against 1,939 and 33,000 for 8).
- **The Canned Worm**: a state with no worm die kept may still stop when its holder
  moves; the claim is made with the sum plus 5 (`TurnRewards.can`).
- **A Bratwurm for two or more 1s**, kept even if the turn then fails: the value of a
  state reached by such a keep is its value plus `bonus`. Each state has a twin slot
  in the value array holding that sum, and a keep of 2+ ones points at the twin, so
  the hot loop stays the base solver's C-level `itemgetter` walk. When the rewards
  with the Bratwurm are not the plain ones plus `bonus` (Hard, where the point can
  decide the game: `TurnRewards.after_bonus`), the twins hold the values of the rest
  of the turn solved with those rewards instead.
- **The Weasel**: after any roll (a failed one too) its holder may roll the same dice
  again, once a turn. With the Weasel unused, each outcome of a roll is worth the
  better of its best keep and the roll without the Weasel from the same state (a
  second pass over the graph, reading the first pass's roll values). A roll with no
  new face is worth the better of the failure and that second roll.

Values are expected rewards, as in the base solver. A player holds one specialist, so
a turn has nine dice or the Weasel, never both; either solve takes about twice the
base solver's time (benchmarks/bench_solver.py).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from functools import cache
from itertools import repeat, starmap
from operator import add, call, itemgetter, mul

import numpy as np

from bot.games.pickomino.ai.extrawurm_chances import (
    Filters,
    Layers,
    PolicyChances,
    followed,
    layers,
    policy_chances,
)
from bot.games.pickomino.ai.memo import memoized
from bot.games.pickomino.ai.rewards import TIE
from bot.games.pickomino.ai.solver import NEVER
from bot.games.pickomino.ai.states import (
    TurnState,
    keep_choices,
    reachable_states,
    successor_table,
)
from bot.games.pickomino.engine.dice import MAX_DICE, Face
from bot.games.pickomino.engine.extrawurm_turns import CANNED_WORM_POINTS

MAX_CLAIM = MAX_DICE * Face.WORM.points + CANNED_WORM_POINTS  # 50: nine 5s and the can
SOLUTIONS_KEPT = 64  # about 150 kB each: 10 MB at most (bot.games.pickomino.ai.memo)

Stops = tuple[float | None, ...]
"""Per claim total 0 to MAX_CLAIM: what stopping gives, None when no tile can be taken."""


def state_of(kept: Iterable[Face], dice: int) -> TurnState:
    """The solver's state of a turn of `dice` dice with `kept` kept."""
    return TurnState.from_kept(kept, dice)


def claim_total(state: TurnState) -> int:
    """The total a stop in `state` claims with: the sum, plus 5 for the can without a worm."""
    return state.total if state.has_worm else state.total + CANNED_WORM_POINTS


@dataclass(frozen=True, slots=True)
class Node:
    """One roll from a state whose turn goes on, its outcomes merged as in states.RollNode.

    Successor indexes point at a state's twin (index + len(states)) when the keep is
    of two or more 1s. `weasel_getters` add the scratch slot, where the second pass
    puts the roll's value without the Weasel.
    """

    state: int
    fail_chance: float
    single_probabilities: tuple[float, ...]
    single_successors: tuple[int, ...]
    single_getter: itemgetter[tuple[float, ...]] | None
    probabilities: tuple[float, ...]
    successors: tuple[tuple[int, ...], ...]
    getters: tuple[itemgetter[tuple[float, ...]], ...]
    weasel_getters: tuple[itemgetter[tuple[float, ...]], ...]


@dataclass(frozen=True, slots=True)
class Graph:
    """Every state of a turn of `dice` dice; value arrays are laid out as
    [states][twins: states + bonus][scratch][padding: NEVER]."""

    dice: int
    states: tuple[TurnState, ...]
    index: dict[TurnState, int]
    ended: tuple[int, ...]
    rolls: tuple[Node, ...]
    roll_of: dict[int, Node]
    claims: itemgetter[tuple[float | None, ...]]  # stops + (None,) -> each state's stop
    claims_with_can: itemgetter[tuple[float | None, ...]]  # the same for the can's holder

    @property
    def size(self) -> int:
        return len(self.states)

    @property
    def scratch(self) -> int:
        return 2 * len(self.states)

    @property
    def padding(self) -> int:
        return 2 * len(self.states) + 1


@cache
def graph(dice: int) -> Graph:
    """The state graph of a turn starting with `dice` dice (built once per count)."""
    states = reachable_states(dice)
    index = {state: position for position, state in enumerate(states)}
    size = len(states)
    rolls = tuple(_node(state, index, size) for state in states if not state.is_over)
    return Graph(
        dice=dice,
        states=tuple(states),
        index=index,
        ended=tuple(index[state] for state in states if state.is_over),
        rolls=rolls,
        roll_of={node.state: node for node in rolls},
        claims=itemgetter(*(_claim_index(state, can=False) for state in states)),
        claims_with_can=itemgetter(*(_claim_index(state, can=True) for state in states)),
    )


def _claim_index(state: TurnState, *, can: bool) -> int:
    """Where a state's stop value is in stops + (None,): its claim total, or the None."""
    if state.has_worm:
        return state.total
    if can and state.total:
        return state.total + CANNED_WORM_POINTS
    return MAX_CLAIM + 1


def _node(state: TurnState, index: dict[TurnState, int], size: int) -> Node:
    choices = keep_choices(state.mask, state.dice_left)
    scratch, padding = 2 * size, 2 * size + 1

    def successor(face: Face, count: int) -> int:
        # A keep of two or more 1s earns a Bratwurm: it leads to the state's twin.
        return index[state.keep(face, count)] + (size if face is Face.ONE and count > 1 else 0)

    table = successor_table(state, successor)
    single_successors = choices.single_successors(table)
    successors = choices.successors(table)
    return Node(
        state=index[state],
        fail_chance=choices.fail,
        single_probabilities=choices.single_probabilities,
        single_successors=single_successors,
        single_getter=itemgetter(*single_successors, padding) if single_successors else None,
        probabilities=choices.probabilities,
        successors=successors,
        getters=tuple(starmap(itemgetter, successors)),
        weasel_getters=tuple(starmap(itemgetter, map(add, successors, repeat((scratch,))))),
    )


@dataclass(frozen=True, slots=True)
class TurnRewards:
    """What the solver needs of a position: the rewards, and the mover's specialists."""

    stops: Stops  # per claim total (with a worm kept, or the can)
    fail: float  # the turn fails
    bonus: float = 0.0  # a Bratwurm for two or more 1s (0 with the supply empty)
    dice: int = 8  # 9 with the Golden Die
    can: bool = False  # the Canned Worm: no-worm states may stop with sum + 5
    weasel: bool = False  # the Weasel is held (used or not this turn)
    # The turn's rewards once the Bratwurm is gained, when they are not these plus
    # `bonus` (a chance to win is not additive: a point can decide the game): stops
    # and failure. The rest of the turn after two or more 1s is solved with them.
    after_bonus: tuple[Stops, float] | None = None

    def with_the_bratwurm(self) -> TurnRewards | None:
        """The rewards of the rest of the turn after a keep of two or more 1s, when
        `after_bonus` gives them (no second Bratwurm: 1s are kept once a turn)."""
        if self.after_bonus is None:
            return None
        stops, fail = self.after_bonus
        return TurnRewards(stops, fail, 0.0, self.dice, self.can, self.weasel)


@dataclass(frozen=True, slots=True)
class OtherEnds:
    """Other values of a turn's ends than its rewards', from 0 to 1, to follow its
    policy to: per claim total, stopping with it; the failure; and what the Bratwurm
    for 1s adds (to the rest of the turn after that keep)."""

    stops: Stops
    fail: float
    bonus: float = 0.0


class ExtrawurmValues:
    """The optimal policy of an Extrawurm turn, valued in every state.

    `value(state, weasel)` is the turn's worth from a state where the player chooses
    between rolling and stopping; `weasel` says whether the Weasel is still to use.
    """

    __slots__ = ("_chances", "after_ones", "graph", "rewards", "rolled", "stop_of", "values")

    def __init__(self, rewards: TurnRewards) -> None:
        if len(rewards.stops) != MAX_CLAIM + 1:
            raise ValueError(f"stops need one entry per claim total 0 to {MAX_CLAIM}")
        self.rewards = rewards
        self.graph = graph(rewards.dice)
        # One C-level pass: each state's claim total indexes the stops (past the end: None).
        claims = self.graph.claims_with_can if rewards.can else self.graph.claims
        self.stop_of: list[float | None] = list(claims((*rewards.stops, None)))
        after = rewards.with_the_bratwurm()
        self.after_ones = None if after is None else solve(after)
        plain, rolled = self._solve_plain()
        self.values = [plain]
        self.rolled = [rolled]
        if rewards.weasel:
            with_weasel, rolled_with = self._solve_weasel(plain, rolled)
            self.values.append(with_weasel)
            self.rolled.append(rolled_with)
        # What following the policy gives by other ends: chances of a tile, of a steal
        # (by weasel and filter), the chance to win (by weasel, stops and failure).
        self._chances: dict[Hashable, tuple[list[float], ...]] = {}

    def _solve_plain(self) -> tuple[list[float], list[float]]:
        graph, fail, bonus, stop_of = (
            self.graph,
            self.rewards.fail,
            self.rewards.bonus,
            self.stop_of,
        )
        size = graph.size
        values = [NEVER] * (graph.padding + 1)
        rolled = [NEVER] * size
        twins = None if self.after_ones is None else self.after_ones.values[0]
        for i in graph.ended:
            stop = stop_of[i]
            values[i] = value = fail if stop is None else stop
            values[size + i] = value + bonus if twins is None else twins[i]
        for node in graph.rolls:
            roll = node.fail_chance * fail + sum(
                map(mul, node.probabilities, map(max, map(call, node.getters, repeat(values))))
            )
            if node.single_getter is not None:
                roll += sum(map(mul, node.single_probabilities, node.single_getter(values)))
            i = node.state
            rolled[i] = roll
            stop = stop_of[i]
            values[i] = value = stop if stop is not None and stop >= roll - TIE else roll
            values[size + i] = value + bonus if twins is None else twins[i]
        return values, rolled

    def _solve_weasel(
        self, plain: list[float], plain_rolled: list[float]
    ) -> tuple[list[float], list[float]]:
        graph, fail, bonus, stop_of = (
            self.graph,
            self.rewards.fail,
            self.rewards.bonus,
            self.stop_of,
        )
        size, scratch = graph.size, graph.scratch
        values = [NEVER] * (graph.padding + 1)
        rolled = [NEVER] * size
        twins = None if self.after_ones is None else self.after_ones.values[-1]
        for i in graph.ended:
            values[i] = plain[i]
            values[size + i] = plain[size + i]
        for node in graph.rolls:
            i = node.state
            again = plain_rolled[i]  # the Weasel: the same dice rolled once more
            values[scratch] = again
            roll = node.fail_chance * max(fail, again) + sum(
                map(
                    mul,
                    node.probabilities,
                    map(max, map(call, node.weasel_getters, repeat(values))),
                )
            )
            if node.single_getter is not None:
                singles = map(max, node.single_getter(values), repeat(again))
                roll += sum(map(mul, node.single_probabilities, singles))
            rolled[i] = roll
            stop = stop_of[i]
            values[i] = value = stop if stop is not None and stop >= roll - TIE else roll
            values[size + i] = value + bonus if twins is None else twins[i]
        values[scratch] = NEVER
        return values, rolled

    # ------------------------------------------------------------------ reading

    def _layer(self, weasel: bool) -> int:
        return 1 if weasel and self.rewards.weasel else 0

    def value(self, state: TurnState, weasel: bool = False) -> float:
        """Worth of `state` (roll or stop, played best), the Weasel unused if `weasel`."""
        return self.values[self._layer(weasel)][self.graph.index[state]]

    def kept_value(self, state: TurnState, weasel: bool, ones_bonus: bool) -> float:
        """`value`, with the Bratwurm when the keep that led here was of two or more 1s."""
        index = self.graph.index[state] + (self.graph.size if ones_bonus else 0)
        return self.values[self._layer(weasel)][index]

    def roll_value(self, state: TurnState, weasel: bool = False) -> float | None:
        """Worth of rolling now and playing best after; None when the turn is over."""
        i = self.graph.index[state]
        return self.rolled[self._layer(weasel)][i] if i in self.graph.roll_of else None

    def stop_value(self, state: TurnState) -> float | None:
        return self.stop_of[self.graph.index[state]]

    # ------------------------------------------------------------------ chances

    def reward_chance(
        self, state: TurnState, weasel: bool = False, totals: frozenset[int] | None = None
    ) -> float:
        """Chance that best play from `state` ends the turn with a tile (with `totals`,
        only a stop with one of those claim totals counts)."""
        return self._tables(self._layer(weasel) == 1, totals)[0][self.graph.index[state]]

    def roll_reward_chance(
        self, state: TurnState, weasel: bool = False, totals: frozenset[int] | None = None
    ) -> float | None:
        """The same, rolling now; None when the turn is over."""
        i = self.graph.index[state]
        if i not in self.graph.roll_of:
            return None
        return self._tables(self._layer(weasel) == 1, totals)[1][i]

    def expected(self, state: TurnState, weasel: bool, ends: OtherEnds) -> float:
        """What best play from `state` (this turn's) gives by other values of the same
        ends (`ends`): the chance to win where this turn's rewards are Hard's blend of
        it and the finishing order, say."""
        return self._expectations(weasel, ends)[0][self.graph.index[state]]

    def roll_expected(self, state: TurnState, weasel: bool, ends: OtherEnds) -> float | None:
        """The same, rolling now; None when the turn is over."""
        i = self.graph.index[state]
        if i not in self.graph.roll_of:
            return None
        return self._expectations(weasel, ends)[1][i]

    def _expectations(self, weasel: bool, ends: OtherEnds) -> tuple[list[float], ...]:
        weasel = self._layer(weasel) == 1
        key = (weasel, ends)
        cached = self._chances.get(key)
        if cached is not None:
            return cached
        claims = self.graph.claims_with_can if self.rewards.can else self.graph.claims
        per_state = [np.nan if value is None else value for value in claims((*ends.stops, None))]
        found = self._follow(
            weasel, np.array([per_state]), np.array([ends.fail]), np.array([ends.bonus])
        )
        self._chances[key] = (found.chances[0].tolist(), found.rolling[0].tolist())
        return self._chances[key]

    def _follow(
        self, weasel: bool, ends: np.ndarray, fails: np.ndarray, bonuses: np.ndarray
    ) -> PolicyChances:
        again = None
        if weasel:
            plain = self._follow(False, ends, fails, bonuses)
            again = (self.rolled[0], plain.rolling)
        layers = chance_layers(self.graph.dice)
        values = self.values[1 if weasel else 0]
        return followed(
            layers, values, self.stop_of, ends, fails, bonuses, self.rewards.fail, again
        )

    def _tables(self, weasel: bool, totals: frozenset[int] | None) -> tuple[list[float], ...]:
        """Follow the policy once more, counting how often it ends with a tile
        (extrawurm_chances.py); each table with and without `totals` at once, as a
        hint asks for both."""
        key = (weasel, totals)
        cached = self._chances.get(key)
        if cached is not None:
            return cached
        filters = (None,) if totals is None else (None, totals)
        found = self._policy(weasel, filters)
        for column, kept in enumerate(filters):
            self._chances[weasel, kept] = (
                found.chances[column].tolist(),
                found.rolling[column].tolist(),
            )
        return self._chances[key]

    def _policy(self, weasel: bool, filters: Filters) -> PolicyChances:
        again = None
        if weasel:
            plain = self._policy(False, filters)
            again = (self.rolled[0], plain.rolling)
        layers = chance_layers(self.graph.dice)
        values = self.values[1 if weasel else 0]
        return policy_chances(layers, values, self.stop_of, filters, self.rewards.fail, again)


@cache
def chance_layers(dice: int) -> Layers:
    """graph(dice) laid out for extrawurm_chances (built once per count)."""
    built = graph(dice)
    rolls = [
        (
            built.states[node.state].dice_left,
            node.state,
            node.fail_chance,
            (*node.single_probabilities, *node.probabilities),
            (*((target,) for target in node.single_successors), *node.successors),
        )
        for node in built.rolls
    ]
    return layers(built.ended, rolls, [claim_total(state) for state in built.states])


@memoized(SOLUTIONS_KEPT)
def solve(rewards: TurnRewards) -> ExtrawurmValues:
    """The solved turn for `rewards` (memoized: every decision of a turn shares it)."""
    return ExtrawurmValues(rewards)


def warm_up() -> None:
    """Build both graphs (8 and 9 dice) ahead of the first Extrawurm decision."""
    for dice in (8, MAX_DICE):
        graph(dice)
        chance_layers(dice)
