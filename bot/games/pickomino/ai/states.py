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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import repeat, starmap
from operator import attrgetter, call, itemgetter

from bot.games.pickomino.ai.rolls import FACES, roll_outcomes
from bot.games.pickomino.engine.dice import DICE_COUNT, MAX_DICE, POINTS, Face

ALL_KEPT = (1 << FACES) - 1
WORM_BIT = 1 << (Face.WORM - 1)
MAX_TOTAL = DICE_COUNT * Face.WORM.points
FACE_ORDER = tuple(Face)  # iterating the enum itself is slow in a hot loop


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
    choices = keep_choices(state.mask, state.dice_left)
    successor = successor_table(state, lambda face, count: index[state.keep(face, count)])
    single_successors = choices.single_successors(successor)
    successors = choices.successors(successor)
    return RollNode(
        state=index[state],
        total=state.total,
        has_worm=state.has_worm,
        fail_chance=choices.fail,
        single_probabilities=choices.single_probabilities,
        single_successors=single_successors,
        single_getter=itemgetter(*single_successors, padding) if single_successors else None,
        probabilities=choices.probabilities,
        successors=successors,
        getters=tuple(starmap(itemgetter, successors)),
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
        for face in FACE_ORDER:
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
    new_faces = [face for face in FACE_ORDER if not mask & face_bit(face)]
    if not new_faces:
        return 1.0, ()  # every face kept: no roll shows a new one
    outcomes = roll_outcomes(dice)
    # Merged by how many dice show each new face, picked out in C (an itemgetter of one
    # index gives a number, of more a tuple); in the order of their first outcome, the
    # order the solvers sum them in.
    new_counts = itemgetter(*(face - 1 for face in new_faces))
    ways: defaultdict[int | tuple[int, ...], int] = defaultdict(int)
    for counts, count in zip(
        map(new_counts, map(attrgetter("counts"), outcomes)),
        map(attrgetter("ways"), outcomes),
        strict=True,
    ):
        ways[counts] += count
    total_ways = FACES**dice
    merged = []
    fail = 0.0
    for counts, count in ways.items():
        shown = counts if isinstance(counts, tuple) else (counts,)
        keeps = tuple((face, n) for face, n in zip(new_faces, shown, strict=True) if n)
        if keeps:
            merged.append((count / total_ways, keeps))
        else:
            fail = count / total_ways
    return fail, tuple(merged)


KEEP_CODE_STRIDE = MAX_DICE + 1


def keep_code(face: Face, count: int) -> int:
    """A keep of `count` dice showing `face` as one small number: a successor table's index."""
    return face * KEEP_CODE_STRIDE + count


KEEP_CODES = keep_code(Face.WORM, MAX_DICE) + 1


@dataclass(frozen=True, slots=True)
class KeepChoices:
    """`merged_outcomes` of one set of kept faces and dice left, laid out for building
    nodes: the outcomes with one new face, then the others, each keep as its
    `keep_code`. Which state a keep leads to depends on the sum kept as well, so a
    node looks its outcomes' successors up in a table of its own (`successor_table`),
    all of an outcome's at once (an itemgetter, in C). Keeping each die of each outcome
    again made the three graphs (8 dice, and Extrawurm's 8 and 9) take about 0.9 s of
    a start-up's CPU, holding the GIL; this way about 0.5 s."""

    fail: float
    single_probabilities: tuple[float, ...]
    single_keeps: tuple[int, ...]
    probabilities: tuple[float, ...]
    keeps: tuple[itemgetter[tuple[int, ...]], ...]  # from a successor table, per outcome

    def single_successors(self, successor: list[int]) -> tuple[int, ...]:
        return tuple(successor[code] for code in self.single_keeps)

    def successors(self, successor: list[int]) -> tuple[tuple[int, ...], ...]:
        return tuple(map(call, self.keeps, repeat(successor)))


@cache
def keep_choices(mask: int, dice: int) -> KeepChoices:
    """The outcomes of a roll of `dice` dice with the faces of `mask` kept (built once)."""
    fail, outcomes = merged_outcomes(mask, dice)
    singles = [(chance, keeps[0]) for chance, keeps in outcomes if len(keeps) == 1]
    others = [(chance, keeps) for chance, keeps in outcomes if len(keeps) > 1]
    return KeepChoices(
        fail=fail,
        single_probabilities=tuple(chance for chance, _ in singles),
        single_keeps=tuple(keep_code(face, count) for _, (face, count) in singles),
        probabilities=tuple(chance for chance, _ in others),
        keeps=tuple(
            itemgetter(*(keep_code(face, count) for face, count in keeps)) for _, keeps in others
        ),
    )


def successor_table(state: TurnState, successor: Callable[[Face, int], int]) -> list[int]:
    """Where each keep open in `state` leads (`successor(face, count)`), by `keep_code`;
    -1 for the keeps that are not open."""
    table = [-1] * KEEP_CODES
    for face in FACE_ORDER:
        if not state.has_kept(face):
            for count in range(1, state.dice_left + 1):
                table[keep_code(face, count)] = successor(face, count)
    return table
