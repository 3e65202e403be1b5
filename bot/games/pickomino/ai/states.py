"""The states of a turn and how one roll moves between them, built once per process.

A turn's state is what is kept: which faces (a 6-bit mask), how many dice are left,
and their sum. The next roll's outcome only matters through the faces not kept yet,
so for each state the distinct rolls are merged by those counts; each merged outcome
lists the states the player can move to by keeping one of its new faces.

Every valid set of kept dice is reachable from the start of a turn, so the graph
holds 1,939 states and about 33,000 merged outcomes. The solver runs over them in
order of dice left, fewest first, so a state's successors are always valued first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter

from bot.games.pickomino.ai.rolls import FACES, roll_outcomes
from bot.games.pickomino.engine.dice import DICE_COUNT, POINTS, Face

ALL_KEPT = (1 << FACES) - 1
WORM_BIT = 1 << (Face.WORM - 1)
MAX_TOTAL = DICE_COUNT * Face.WORM.points


def face_bit(face: Face) -> int:
    return 1 << (face - 1)


@dataclass(frozen=True, slots=True)
class TurnState:
    """The dice kept so far this turn, as the solver sees them."""

    mask: int  # bit (face - 1) is set when that face is kept
    dice_left: int
    total: int

    @classmethod
    def start(cls) -> TurnState:
        return cls(0, DICE_COUNT, 0)

    @classmethod
    def from_kept(cls, kept: Iterable[Face], dice: int = DICE_COUNT) -> TurnState:
        """The state of a turn of `dice` dice with these kept (any order)."""
        faces = [Face(face) for face in kept]
        if len(faces) > dice:
            raise ValueError(f"at most {dice} dice can be kept, not {len(faces)}")
        mask = 0
        for face in faces:
            mask |= face_bit(face)
        return cls(mask, dice - len(faces), sum(POINTS[face] for face in faces))

    @property
    def has_worm(self) -> bool:
        return bool(self.mask & WORM_BIT)

    @property
    def is_over(self) -> bool:
        """True when the turn ends by itself: all dice kept, or all six faces."""
        return self.dice_left == 0 or self.mask == ALL_KEPT

    def has_kept(self, face: Face) -> bool:
        return bool(self.mask & face_bit(face))

    def keep(self, face: Face, count: int) -> TurnState:
        """The state after keeping `count` dice showing `face`."""
        if self.has_kept(face) or not 1 <= count <= self.dice_left:
            raise ValueError(f"cannot keep {count} x {face!r} in {self}")
        return TurnState(
            self.mask | face_bit(face),
            self.dice_left - count,
            self.total + count * POINTS[face],
        )

    def keeps(self, roll: Sequence[Face]) -> Iterator[tuple[Face, int, TurnState]]:
        """Each face of `roll` not kept yet, lowest first: the face, how many dice show
        it, and the state after keeping them all."""
        for face in sorted(set(roll)):
            if not self.has_kept(face):
                count = roll.count(face)
                yield face, count, self.keep(face, count)


@dataclass(frozen=True, slots=True)
class RollNode:
    """The next roll from one state whose turn goes on, its outcomes merged.

    Outcomes with one new face lead to one state: they are summed in one go through
    `single_getter`, which returns the values of `single_successors` (followed by the
    padding's, which `zip` drops). Each other outcome j leads to the states
    `successors[j]`, whose values `getters[j]` returns, the best of which counts.
    """

    state: int  # index in StateGraph.states
    total: int
    has_worm: bool
    fail_chance: float  # the roll shows no new face
    single_probabilities: tuple[float, ...]
    single_successors: tuple[int, ...]
    single_getter: itemgetter[tuple[float, ...]] | None  # None without such outcomes
    probabilities: tuple[float, ...]
    successors: tuple[tuple[int, ...], ...]
    getters: tuple[itemgetter[tuple[float, ...]], ...]


@dataclass(frozen=True, slots=True)
class StateGraph:
    """All states of a turn: those where it is over, and the rolls from the others.

    `rolls` come in order of dice left, fewest first, so a solver that goes through
    `ended` and then `rolls` always has the successors of a roll valued already.
    """

    states: tuple[TurnState, ...]
    index: dict[TurnState, int]
    ended: tuple[int, ...]  # indexes of the states where the turn is over
    rolls: tuple[RollNode, ...]
    roll_of: dict[int, RollNode]  # by state index

    @property
    def padding(self) -> int:
        """The index one past the last state: solvers keep a value there that never wins."""
        return len(self.states)

    @property
    def outcome_count(self) -> int:
        """Merged outcomes over all rolls: the solver's work."""
        return sum(len(node.probabilities) + len(node.single_probabilities) for node in self.rolls)


@cache
def state_graph() -> StateGraph:
    """The graph of every turn state (built on first use, then shared)."""
    states = reachable_states()
    index = {state: position for position, state in enumerate(states)}
    rolls = tuple(
        _roll_node(state, index, padding=len(states)) for state in states if not state.is_over
    )
    return StateGraph(
        states=tuple(states),
        index=index,
        ended=tuple(index[state] for state in states if state.is_over),
        rolls=rolls,
        roll_of={node.state: node for node in rolls},
    )


def _roll_node(state: TurnState, index: dict[TurnState, int], padding: int) -> RollNode:
    fail, outcomes = merged_outcomes(state.mask, state.dice_left)
    singles: list[tuple[float, int]] = []
    others: list[tuple[float, tuple[int, ...]]] = []
    for chance, keeps in outcomes:
        targets = tuple(index[state.keep(face, count)] for face, count in keeps)
        if len(targets) == 1:
            singles.append((chance, targets[0]))
        else:
            others.append((chance, targets))
    single_successors = tuple(target for _, target in singles)
    return RollNode(
        state=index[state],
        total=state.total,
        has_worm=state.has_worm,
        fail_chance=fail,
        single_probabilities=tuple(chance for chance, _ in singles),
        single_successors=single_successors,
        single_getter=itemgetter(*single_successors, padding) if singles else None,
        probabilities=tuple(chance for chance, _ in others),
        successors=tuple(targets for _, targets in others),
        getters=tuple(itemgetter(*targets) for _, targets in others),
    )


def reachable_states(dice: int = DICE_COUNT) -> list[TurnState]:
    """Every state a turn starting with `dice` dice can reach, fewest dice left first
    (then by kept faces): the order the solvers build and index their graphs in."""
    start = TurnState(0, dice, 0)
    seen = {start}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        if state.is_over:
            continue
        for face in Face:
            if state.has_kept(face):
                continue
            for count in range(1, state.dice_left + 1):
                successor = state.keep(face, count)
                if successor not in seen:
                    seen.add(successor)
                    frontier.append(successor)
    return sorted(seen, key=lambda state: (state.dice_left, state.mask))


@cache
def merged_outcomes(
    mask: int, dice: int
) -> tuple[float, tuple[tuple[float, tuple[tuple[Face, int], ...]], ...]]:
    """The chance of no new face, and the other outcomes merged by their new faces.

    Each merged outcome is (chance, ((face, count), ...)) for the faces not kept yet.
    """
    new_faces = [face for face in Face if not mask & face_bit(face)]
    ways: defaultdict[tuple[tuple[Face, int], ...], int] = defaultdict(int)
    for outcome in roll_outcomes(dice):
        keeps = tuple((face, outcome.count(face)) for face in new_faces if outcome.count(face))
        ways[keeps] += outcome.ways
    total_ways = FACES**dice
    fail = ways.pop((), 0) / total_ways
    return fail, tuple((count / total_ways, keeps) for keeps, count in ways.items())
