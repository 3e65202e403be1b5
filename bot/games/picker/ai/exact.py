"""Three-player Picker solved exactly: Hard's best keep against each pair of rules its
two opponents may keep by, the mix of pairs read from the record.

A 3-player game is small enough to solve to its end (as
benchmarks/support/picker_ceiling.py does for the ceiling): 6 rounds, and a colour's
bonus state is only whether it was kept before (a colour is kept at most 6 times, so
each keep after the first adds exactly 3).
The state at the start of a round, seen from the seat solved for (seat 0, the others 1
and 2 in seat order): who keeps first and the colours each seat kept (a `Key`), and the
score gaps d1, d2 (an opponent's score less seat 0's). The value of a state, seat 0's
expected share of first place (1/k on a k-way tie) with its best keeps, is a table over
the gaps for each round and key, built from the next round's tables over the 210 rolls.

The opponents keep by one of three rules (`Rule`): Normal's, a greedy player's (both in
greedy.py; neither reads the scores) or a look-ahead player's, which keeps the die after
which its own chance of first place is best if everyone keeps greedily from then on: the
Monte Carlo look-ahead of issue 28 with every future weighed exactly. That rule reads
the scores, so its keep is worked out for every cell of a table at once (numpy), from
the tables of the all-greedy game seen from its seat. Hard weighs the nine pairs of
rules by the chances read from the record (reading.rule_chances) and keeps the die best
against that mix, as if each opponent's rule were known from here on. A seat the bot's
own Normal computer player sits in is not read: its rule is known (`normal_seats`), and
against two of them Hard is the exact best reply.

The best replies, exact: 41.0% against two Normals, 46.5% against two greedy players
(benchmarks/support/picker_ceiling.py, a solver of its own, finds both too), 39.4%
against two look-ahead players (bench_picker_bots --ceiling); measured, the best reply to the rule
wins 39.5% [36.4, 42.6] against the benchmark's sampling look-ahead bot (600 games).
Building every table takes 45 s of CPU and 23 MiB (`Tables.build`); the bot starts it
in the background (`Tables.start`).
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import os
import tempfile
import threading
import zipfile
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import numpy as np

from bot.games.picker.ai import greedy, reading
from bot.games.picker.ai.greedy import GREEDY_SET_WEIGHT, SET_GAIN, SET_WEIGHT, greedy_choice
from bot.games.picker.ai.reading import Keep, KeepRule, greedy_rule, normal_rule
from bot.games.picker.engine import Game
from bot.games.picker.engine.colours import COLOUR_INDEX

log = logging.getLogger(__name__)

PLAYERS = 3
ROUNDS = 2 * PLAYERS
SWING = 6 + SET_GAIN[1] - 1  # the most one round moves a score gap: a 6 kept again against a 1
DICE = tuple(
    dice for dice in itertools.product(range(1, 7), repeat=PLAYERS) if len(set(dice)) > 1
)  # a roll of all-equal dice is rolled again: the others are equally likely
# Adding one number to every die changes no rule's keep (each compares numbers, and the
# lowest moves along) and no score gap: a round is played once per shape of roll (90 of
# them, those with a 1), counted as often as it can be shifted.
ROLLS = tuple(Counter(tuple(die - min(dice) + 1 for die in dice) for dice in DICE).items())
MARGIN_TIE_BREAK = 1e-3  # the look-ahead player's last keep: first place, then its margin
# Before any keep is read, each rule alike. Favouring Normal (0.5, 0.25, 0.25) won 0.5
# points against two Normals and lost 0.4 against two look-ahead bots, 0.3 against two
# greedy players (2,400 paired games each): a trade, not a gain. Reading faster (MISS
# 0.05 or 0.02) changed nothing: telling keeps are few, not weakly read.
PRIOR = (1 / 3, 1 / 3, 1 / 3)
MIN_WEIGHT = 1e-4  # pairs of rules less likely than this are left out of a decision

# The tables a cache file holds are those of this code: its name carries a digest of
# the modules that define them, so a file kept by another version is never read.
CACHE_PATTERN = "picker-exact-{}.npz"  # a digest, or "*" for every version's
CACHE_NAME = CACHE_PATTERN.format(
    hashlib.sha256(
        b"".join(Path(module).read_bytes() for module in (__file__, greedy.__file__))
    ).hexdigest()[:16]
)
GREEDY = "allgreedy"  # the all-greedy tables' name in a cache file

Key = tuple[int, tuple[int, int, int]]  # who keeps first, each seat's colours kept (bits)
Table = np.ndarray  # values by [d1 + radius, d2 + radius]


class Rule(StrEnum):
    NORMAL = "normal"
    GREEDY = "greedy"
    LOOKAHEAD = "lookahead"


RULES = tuple(Rule)


def applies(game: Game) -> bool:
    """Whether `game` is one these tables solve: three players, six rounds."""
    return len(game.players) == PLAYERS and game.rounds_total == ROUNDS


def radius(round_index: int) -> int:
    """The gaps a table at the start of round `round_index` holds: no gap reaches past
    SWING per round played, and past SWING per round left (+1) a gap is decided, so
    the edge stands for everything beyond it."""
    return min(SWING * round_index, SWING * (ROUNDS - round_index) + 1)


# Every gap a lookup meets lies within +-FAR (two opponents' gaps apart, a round after
# the widest table); _INDEX[round][gap + FAR] is its row in that round's table, the
# edge for gaps beyond (np.clip costs more than the lookup on arrays this small).
FAR = 4 * SWING * ROUNDS
_INDEX = [
    np.clip(np.arange(-FAR, FAR + 1), -radius(index), radius(index)) + radius(index)
    for index in range(ROUNDS + 1)
]


def _lookup(table: Table, round_index: int, d1: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """`table` (of round `round_index`) at the gaps d1, d2 (arrays that broadcast)."""
    rows = _INDEX[round_index]
    return table[rows[d1 + FAR], rows[d2 + FAR]]


def _share(d1: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """Seat 0's share of first place when the game ends with these gaps."""
    ahead = (d1 <= 0) & (d2 <= 0)
    return np.where(ahead, 1.0 / (1 + (d1 == 0) + (d2 == 0)), 0.0)


def _rotate(key: Key, seat: int) -> Key:
    """`key` seen from `seat` (seat numbers relative to it)."""
    first, sets = key
    return (first - seat) % PLAYERS, (
        sets[seat % PLAYERS],
        sets[(seat + 1) % PLAYERS],
        sets[(seat + 2) % PLAYERS],
    )


def _counts(bits: int) -> list[int]:
    """Colours kept as counts, as greedy_choice reads them (only 0 or 1 matters here)."""
    return [bits >> colour & 1 for colour in range(PLAYERS)]


class _Round:
    """One round being played, seen from seat 0: its dice and who keeps in which order."""

    __slots__ = ("dice", "lowest", "more_rounds", "order", "round_index")

    def __init__(self, round_index: int, dice: tuple[int, ...], first: int) -> None:
        self.round_index = round_index
        self.dice = dice
        self.lowest = min(dice)
        self.order = [(first + offset) % PLAYERS for offset in range(PLAYERS)]
        self.more_rounds = round_index + 1 < ROUNDS


@dataclass(slots=True)
class _Branch:
    """The round so far along one sequence of keeps (each keep makes a new branch)."""

    position: int  # how many have kept this round
    taken: list[int]  # the dice kept, in order
    gains: list[int]  # per seat: what this round added to its score
    sets: list[int]  # per seat: the colours it has kept (bits), this round's included
    picker: int  # the seat that kept the round's lowest number first, -1 while nobody

    def keep(self, play: _Round, colour: int) -> _Branch:
        seat = play.order[self.position]
        gains, sets = list(self.gains), list(self.sets)
        gains[seat] += play.dice[colour] + SET_GAIN[sets[seat] >> colour & 1]
        sets[seat] |= 1 << colour
        picker = self.picker
        if picker < 0 and play.dice[colour] == play.lowest:
            picker = seat
        return _Branch(self.position + 1, [*self.taken, colour], gains, sets, picker)

    def available(self) -> list[int]:
        return [colour for colour in range(PLAYERS) if colour not in self.taken]

    def rule_keep(self, play: _Round, rule: Rule) -> int:
        """The keep of the seat to move by a rule that ignores the scores."""
        seat = play.order[self.position]
        weight = SET_WEIGHT if rule is Rule.NORMAL else GREEDY_SET_WEIGHT
        return greedy_choice(
            play.dice,
            self.available(),
            _counts(self.sets[seat]),
            self.picker < 0,
            play.lowest,
            play.more_rounds,
            weight,
        )


Seen = tuple[tuple[np.ndarray, np.ndarray], _Round, _Branch]  # gaps, round, keeps so far


def _next_key(branch: _Branch) -> Key:
    """The key of the round after a finished `branch`: its Picker keeps first."""
    first, second, third = branch.sets
    return branch.picker, (first, second, third)


class OffTable(LookupError):
    """A table the frozen set does not hold (a guard: built, it holds every position)."""


class _Memo:
    """Tables by round and key, built when first asked for until `frozen`."""

    def __init__(self) -> None:
        self.tables: dict[tuple[int, Key], Table] = {}
        self.frozen = False

    def table(self, round_index: int, key: Key) -> Table:
        found = self.tables.get((round_index, key))
        if found is None:
            if self.frozen:
                raise OffTable(round_index, key)
            found = self.tables[round_index, key] = self._build(round_index, key)
        return found

    def value(self, round_index: int, key: Key, d1: np.ndarray, d2: np.ndarray) -> np.ndarray:
        """The value at the start of round `round_index` (the game's end: the share)."""
        if round_index == ROUNDS:
            return _share(d1, d2)
        return _lookup(self.table(round_index, key), round_index, d1, d2)

    def _build(self, round_index: int, key: Key) -> Table:
        raise NotImplementedError

    @property
    def nbytes(self) -> int:
        return sum(table.nbytes for table in self.tables.values())


class _AllGreedy(_Memo):
    """Seat 0's share when every seat keeps greedily from the start of a round on."""

    def _build(self, round_index: int, key: Key) -> Table:
        span = np.arange(-radius(round_index), radius(round_index) + 1)
        d1, d2 = span[:, None], span[None, :]
        outcomes: Counter[tuple[int, int, Key]] = Counter()
        for dice, count in ROLLS:  # greedy keeps ignore the scores: a roll moves all alike
            play = _Round(round_index, dice, key[0])
            branch = _Branch(0, [], [0] * PLAYERS, list(key[1]), -1)
            while branch.position < PLAYERS:
                branch = branch.keep(play, branch.rule_keep(play, Rule.GREEDY))
            gains = branch.gains
            next_key = _next_key(branch)
            outcomes[gains[1] - gains[0], gains[2] - gains[0], next_key] += count
        total = np.zeros((len(span), len(span)))
        for (shift1, shift2, next_key), count in outcomes.items():
            total += count * self.value(round_index + 1, next_key, d1 + shift1, d2 + shift2)
        return (total / len(DICE)).astype(np.float32)


class _Pair(_Memo):
    """Seat 0's best share against seat 1 keeping by one rule and seat 2 by another."""

    def __init__(self, rules: tuple[Rule, Rule], greedy: _AllGreedy) -> None:
        super().__init__()
        self.rules = rules
        self.greedy = greedy

    def _build(self, round_index: int, key: Key) -> Table:
        span = np.arange(-radius(round_index), radius(round_index) + 1)
        d1, d2 = span[:, None], span[None, :]
        total = np.zeros((len(span), len(span)))
        for dice, count in ROLLS:
            play = _Round(round_index, dice, key[0])
            start = _Branch(0, [], [0] * PLAYERS, list(key[1]), -1)
            total += count * self.finish(play, start, d1, d2)
        return (total / len(DICE)).astype(np.float32)

    def finish(
        self,
        play: _Round,
        branch: _Branch,
        d1: np.ndarray,
        d2: np.ndarray,
        options: dict[int, np.ndarray] | None = None,
    ) -> np.ndarray:
        """Seat 0's value over the gaps d1, d2 (at the round's start) once the round is
        finished from `branch`, seat 0 keeping its best; `options` collects seat 0's
        value of each die it may keep, when it keeps next with a choice."""
        if branch.position == PLAYERS:
            gains = branch.gains
            after1, after2 = d1 + gains[1] - gains[0], d2 + gains[2] - gains[0]
            return self.value(play.round_index + 1, _next_key(branch), after1, after2)
        seat = play.order[branch.position]
        available = branch.available()
        if len(available) == 1:
            return self.finish(play, branch.keep(play, available[0]), d1, d2)
        if seat == 0:
            values = {
                colour: self.finish(play, branch.keep(play, colour), d1, d2) for colour in available
            }
            if options is not None:
                options.update(values)
            return np.maximum.reduce(list(values.values()))
        rule = self.rules[seat - 1]
        if rule is not Rule.LOOKAHEAD:
            return self.finish(play, branch.keep(play, branch.rule_keep(play, rule)), d1, d2)
        keeps = lookahead_keeps(self.greedy, play, branch, seat, d1, d2)
        result = np.zeros(np.broadcast_shapes(d1.shape, d2.shape))
        for colour in available:
            where = keeps == colour
            if where.any():
                result += np.where(where, self.finish(play, branch.keep(play, colour), d1, d2), 0)
        return result


def lookahead_keeps(
    greedy: _AllGreedy,
    play: _Round,
    branch: _Branch,
    seat: int,
    d1: np.ndarray,
    d2: np.ndarray,
) -> np.ndarray:
    """The look-ahead player's keep in `seat` (to move in `branch`) for every pair of
    gaps d1, d2 of seat 0 (at the round's start): the die after which, everyone keeping
    greedily from then on, its share of first place is best (in the last round, then its
    margin); equal values go to the higher number, then the earlier colour."""
    candidates = sorted(branch.available(), key=lambda colour: -play.dice[colour])
    values = []
    for colour in candidates:
        after = branch.keep(play, colour)
        while after.position < PLAYERS:
            after = after.keep(play, after.rule_keep(play, Rule.GREEDY))
        gains = after.gains
        relative: list[np.ndarray] = [
            np.zeros((1, 1), dtype=int),
            d1 + gains[1] - gains[0],
            d2 + gains[2] - gains[0],
        ]
        mine = relative[seat]
        own1 = relative[(seat + 1) % PLAYERS] - mine
        own2 = relative[(seat + 2) % PLAYERS] - mine
        next_round = play.round_index + 1
        if next_round == ROUNDS:
            value = _share(own1, own2) - MARGIN_TIE_BREAK * np.maximum(own1, own2)
        else:
            value = greedy.value(next_round, _rotate(_next_key(after), seat), own1, own2)
        values.append(np.broadcast_to(value, np.broadcast_shapes(d1.shape, d2.shape)))
    best = np.argmax(np.stack(values), axis=0)  # the first of equal values
    return np.asarray(candidates)[best]


class Tables:
    """The all-greedy tables and the nine pairs' tables.

    Until `build` (or `start`, which builds in a background thread) has run, a table is
    built when first asked for: fine for a late position, far too slow for an early one.
    Once built, `ready` is True and the set is frozen: it holds every position a game
    can reach, and a missing table raises OffTable rather than being built at a
    decision. Threads may read them once ready.
    """

    def __init__(self) -> None:
        self.greedy = _AllGreedy()
        self.pairs = {rules: _Pair(rules, self.greedy) for rules in itertools.product(RULES, RULES)}
        self.ready = False
        self._started = False

    def build(self) -> None:
        """Every table a game can reach (45 s of CPU, 23 MiB), then freeze them."""
        for pair in self.pairs.values():
            for first in range(PLAYERS):
                pair.table(0, (first, (0, 0, 0)))
        self._freeze()

    def start(self, cache: Path | None = None) -> None:
        """Load or build in a daemon thread (once); decisions use the tables when `ready`.
        With a `cache` folder, tables kept there by this code are loaded (a fraction of a
        second), and tables built are kept there for the next start or process."""
        if not self._started:
            self._started = True
            threading.Thread(
                target=self.load_or_build, args=(cache,), name="picker-exact-tables", daemon=True
            ).start()

    def load_or_build(self, cache: Path | None) -> None:
        """`load` the cache's file if it is there and whole, else `build` and `save` it."""
        path = None if cache is None else cache / CACHE_NAME
        if path is not None and path.exists():
            try:
                self.load(path)
                return
            except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
                log.warning("building Picker's tables again: %s is unreadable (%s)", path, error)
        self.build()
        if path is not None:
            try:
                self.save(path)
            except OSError as error:
                log.warning("could not keep Picker's tables in %s: %s", path, error)
                return
            _remove_other_versions(path)

    def save(self, path: Path) -> None:
        """Keep every table built in `path` (numpy's .npz), written whole or not at all:
        processes sharing the folder may save at once, and one may read meanwhile.
        The tables go as three arrays (their names, their shapes, and their values one
        after the other), not as an array each: 4,977 members of a zip file took about
        a second of a restart's CPU to open one by one."""
        kept = [
            (_array_name(name, round_index, key), table)
            for name, memo in self._memos()
            for (round_index, key), table in memo.tables.items()
        ]
        names = np.array([name for name, _ in kept], dtype=np.str_)
        shapes = np.array([table.shape for _, table in kept], dtype=np.int64).reshape(-1, 2)
        values = np.concatenate([table.ravel() for _, table in kept] or [np.empty(0)])
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as file:
            try:
                np.savez(file, allow_pickle=False, names=names, shapes=shapes, values=values)
            except BaseException:
                os.unlink(file.name)  # a disk full: leave no half file behind
                raise
        os.chmod(file.name, 0o644)  # readable by processes of other users sharing the folder
        os.replace(file.name, path)

    def load(self, path: Path) -> None:
        """The tables kept in `path` by `save`, then frozen and ready as after `build`;
        ValueError for a file that does not hold every starting table, or whose shapes
        and values disagree."""
        memos = dict(self._memos())
        loaded: dict[str, dict[tuple[int, Key], Table]] = {name: {} for name in memos}
        with np.load(path, allow_pickle=False) as kept:
            names, shapes, values = kept["names"], kept["shapes"], kept["values"]
        if shapes.ndim != 2 or shapes.shape != (len(names), 2):
            raise ValueError(f"{len(names)} tables named, with shapes {shapes.shape}")
        ends = np.cumsum(shapes.prod(axis=1))
        if len(ends) and ends[-1] != values.size:
            raise ValueError(f"the tables' shapes hold {ends[-1]} values, the file {values.size}")
        tables = np.split(values, ends[:-1])  # views of the one block
        for array_name, shape, table in zip(names.tolist(), shapes.tolist(), tables, strict=True):
            name, round_index, key = _parse_array_name(array_name)
            loaded[name][round_index, key] = table.reshape(shape)
        starts = [(0, (first, (0, 0, 0))) for first in range(PLAYERS)]
        for name in memos:
            if name != GREEDY and not all(start in loaded[name] for start in starts):
                raise ValueError(f"no starting table for {name}")
        for name, memo in memos.items():
            memo.tables.update(loaded[name])
        self._freeze()

    def _freeze(self) -> None:
        """Every table a game can reach is held: freeze them all, and serve decisions."""
        for _, memo in self._memos():
            memo.frozen = True
        self.ready = True

    def _memos(self) -> list[tuple[str, _Memo]]:
        pairs = [(f"{one.value}-{other.value}", pair) for (one, other), pair in self.pairs.items()]
        return [(GREEDY, self.greedy), *pairs]

    @property
    def nbytes(self) -> int:
        return sum(memo.nbytes for _, memo in self._memos())


def _remove_other_versions(kept: Path) -> None:
    """Remove the tables other versions of this code kept beside `kept` (24 MiB each,
    never read by this one). A process of another version that already runs has its
    tables in memory; one started later builds its own again."""
    for other in kept.parent.glob(CACHE_PATTERN.format("*")):
        if other != kept:
            try:
                other.unlink()
            except OSError as error:
                log.info("could not remove %s, kept by another version: %s", other, error)
            else:
                log.info("removed %s, kept by another version", other)


def _array_name(memo: str, round_index: int, key: Key) -> str:
    first, sets = key
    return "_".join(map(str, (memo, round_index, first, *sets)))


def _parse_array_name(name: str) -> tuple[str, int, Key]:
    memo, round_index, first, *sets = name.split("_")
    if len(sets) != PLAYERS:
        raise ValueError(f"not a table's name: {name}")
    one, two, three = map(int, sets)
    return memo, int(round_index), (int(first), (one, two, three))


TABLES = Tables()


def lookahead_keep(game: Game, tables: Tables = TABLES) -> int:
    """The look-ahead rule's keep for the player to move in `game` (a colour index)."""
    start, play, branch = _position(game, game.current)
    return int(lookahead_keeps(tables.greedy, play, branch, 0, *start).item())


def lookahead_rule(tables: Tables = TABLES) -> KeepRule:
    """The look-ahead rule as the reading weighs it: its keep where a keep was made."""

    def keep_of(keep: Keep) -> int:
        start, play, branch = _seen_from(
            keep.seat, keep.round_index, keep.first, keep.dice, keep.earlier, keep.history
        )
        return int(lookahead_keeps(tables.greedy, play, branch, 0, *start).item())

    return keep_of


def rule_chances(
    game: Game, tables: Tables = TABLES, normal_seats: Collection[int] = ()
) -> list[list[float]]:
    """Per seat, the chance of each rule (RULES order) read from the record; the player
    to move is not read, and a seat in `normal_seats` keeps by Normal's rule for certain
    (a computer player of the bot's own: its rule is known, not read). OffTable if a
    table is missing."""
    rules = (normal_rule, greedy_rule, lookahead_rule(tables))
    known = dict.fromkeys(normal_seats, RULES.index(Rule.NORMAL))
    return reading.rule_chances(game, rules, PRIOR, skip=game.current, known=known)


def option_values(
    game: Game, rules: tuple[Rule, Rule], tables: Tables = TABLES
) -> dict[int, float]:
    """Each die the player to move may keep (colour index) and its exact share of first
    place against the next seat keeping by `rules[0]` and the one after by `rules[1]`."""
    return _option_values(tables.pairs[rules], _position(game, game.current))


def _option_values(pair: _Pair, seen: Seen) -> dict[int, float]:
    (d1, d2), play, branch = seen
    options: dict[int, np.ndarray] = {}
    value = pair.finish(play, branch, d1, d2, options=options)
    if not options:  # one die left: nothing to choose
        return {branch.available()[0]: float(value.item())}
    return {colour: float(array.item()) for colour, array in options.items()}


def _position(game: Game, me: int) -> Seen:
    """`game` in the tables' terms, seen from seat `me`: the gaps at the round's start
    (1x1 arrays), the round, and the keeps made in it so far."""
    assert game.dice is not None
    history = [
        [(COLOUR_INDEX[colour], value) for colour, value in game.kept[player][: game.round]]
        for player in game.players
    ]
    earlier = [COLOUR_INDEX[colour] for colour in game.picks]
    return _seen_from(me, game.round, game.first, game.dice, earlier, history)


def _seen_from(
    me: int,
    round_index: int,
    first: int,
    dice: tuple[int, ...],
    earlier: Sequence[int],
    history: Sequence[Sequence[tuple[int, int]]],
) -> Seen:
    """A round in the tables' terms, seen from seat `me`: `history` holds each seat's
    (colour, number) kept in earlier rounds, `earlier` the dice kept so far this round."""
    sets, scores = [], []
    for offset in range(PLAYERS):
        bits = score = 0
        for colour, value in history[(me + offset) % PLAYERS]:
            score += value + SET_GAIN[bits >> colour & 1]
            bits |= 1 << colour
        sets.append(bits)
        scores.append(score)
    play = _Round(round_index, dice, (first - me) % PLAYERS)
    branch = _Branch(0, [], [0] * PLAYERS, sets, -1)
    for colour in earlier:
        branch = branch.keep(play, colour)
    gaps = (np.array([[scores[1] - scores[0]]]), np.array([[scores[2] - scores[0]]]))
    return gaps, play, branch


def choose(game: Game, chances: Sequence[Sequence[float]], tables: Tables = TABLES) -> int:
    """The die (colour index) best against the mix of rule pairs, each opponent keeping
    by rule i with chances[seat][i] (RULES order); OffTable when a table is missing."""
    totals = values(game, chances, tables)
    dice = game.dice
    assert dice is not None
    return max(totals, key=lambda colour: (totals[colour], dice[colour], -colour))


def values(
    game: Game, chances: Sequence[Sequence[float]], tables: Tables = TABLES
) -> dict[int, float]:
    """Each die the player to move may keep and its share of first place against the
    mix of rule pairs (see `choose`)."""
    me = game.current
    nexts = ((me + 1) % PLAYERS, (me + 2) % PLAYERS)
    seen = _position(game, me)  # the same for every pair of rules
    totals: dict[int, float] = {}
    for (first_rule, second_rule), pair in tables.pairs.items():
        weight = (
            chances[nexts[0]][RULES.index(first_rule)] * chances[nexts[1]][RULES.index(second_rule)]
        )
        if weight < MIN_WEIGHT:
            continue
        for colour, value in _option_values(pair, seen).items():
            totals[colour] = totals.get(colour, 0.0) + weight * value
    return totals


def hard_values(game: Game, normal_seats: Collection[int] = ()) -> dict[int, float] | None:
    """Hard's values of the dice from the shared tables (`values` against the rules read
    from the record, Normal's for `normal_seats`), or None where they do not answer: not
    a 3-player game, the tables not built yet, or a table missing (Hard then plays its
    look-ahead)."""
    if not applies(game) or not TABLES.ready:
        return None
    try:
        return values(game, rule_chances(game, normal_seats=normal_seats))
    except OffTable:
        return None
