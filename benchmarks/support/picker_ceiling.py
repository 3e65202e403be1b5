"""The best win share any player can reach against two Normals (or two greedy players,
support/picker_opponents.py) in 3-player Picker, exactly: bench_picker_bots --ceiling
prints it, and the tests of bot/games/picker/ai/exact.py check Hard's own tables
against it (a solver written apart).

Normal (bot/games/picker/ai/greedy.py) is deterministic given the dice, so against two
Normals the only chance left is the dice, and the game is a one-player game against
the dice: dynamic programming over every roll gives the best policy's exact value, a
bound for every policy, even one that knows Normal's rule (a first place shared by k
players counts 1/k, as in benchmarks/bench_picker_bots.py). `solve(rounds=R)` plays
only R rounds, as if the game ended there, and `solve(policy=...)` values a given rule
in the seat instead of the best one (the opponents' own rule gets a fair share, 1/3,
which checks the machinery). The greedy rule is deterministic too and reads only
whether a colour was kept before, so the same tables serve it: 46.5% against two
greedy players (41.0% against two Normals). Pure Python, about a minute for the 6
rounds of a 3-player game.

The state at the start of a round, seen from the seat being solved for (seat 0, the
others 1 and 2 in seat order): who keeps first, which colours each seat has kept
(with 6 rounds a colour is kept at most 6 times, so keeping it again adds 3 points
exactly when it was kept before: the colours kept are the whole of the bonus state),
and each opponent's score minus seat 0's, d1 and d2. Normal's keeps never depend on
the scores, so a round moves (d1, d2) by a shift fixed by the state, the dice and
seat 0's keep: the values of a round are a table over (d1, d2), built from the next
round's tables shifted. A round moves a score gap by at most 8 (a 6 with the colour
kept before against a 1), which bounds the tables (`_radius`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bot.games.picker.ai.exact import DICE, PLAYERS, ROUNDS, SWING
from bot.games.picker.ai.greedy import SET_GAIN, greedy_choice

Sets = tuple[int, ...]  # per seat: a bit per colour kept at least once
Key = tuple[int, Sets]  # who keeps first, the colours kept
Table = list[list[float]]  # value by [d1 + radius][d2 + radius]
Move = tuple[int, int, Key]  # one keep of seat 0: the shift of d1 and d2, the next key
# How seat 0 keeps when evaluated rather than solved: (dice, available, counts,
# picker_open, lowest, more_rounds) -> colour index, like greedy_choice.
Policy = Callable[[tuple[int, ...], list[int], list[int], bool, int, bool], int]


@dataclass(frozen=True, slots=True)
class Solution:
    rounds: int
    radius: int
    tables: list[dict[Key, Table]]  # by round from the start, then the end's

    def value(self, key: Key, d1: int = 0, d2: int = 0) -> float:
        """Seat 0's expected share of first place from `key` with gaps d1, d2 at the start."""
        radius = self.radius
        return self.tables[0][key][d1 + radius][d2 + radius]


def solve(
    rounds: int = ROUNDS,
    starts: tuple[Key, ...] | None = None,
    start_gap: int = 0,
    policy: Policy | None = None,
    opponent: Policy | None = None,
) -> Solution:
    """Tables for `rounds` rounds from the keys `starts` (default: a fresh game, each seat
    keeping first), valid for gaps up to `start_gap` at the start. With `policy`, seat 0
    plays it instead of its best keep; the others play `opponent` (default Normal)."""
    if starts is None:
        starts = tuple((first, (0,) * PLAYERS) for first in range(PLAYERS))
    radius = _radius(rounds, start_gap)
    moves = _moves(rounds, starts, policy, opponent or greedy_choice)
    width = 2 * radius + 1
    pad = SWING
    tables: list[dict[Key, Table]] = [{} for _ in range(rounds + 1)]
    final = _final_table(radius)
    tables[rounds] = dict.fromkeys(_next_keys(moves[rounds - 1]), final)
    for round_index in range(rounds - 1, -1, -1):
        padded = {key: _pad(table, pad) for key, table in tables[round_index + 1].items()}
        for key, outcomes in moves[round_index].items():
            total = sum(outcomes.values())
            sums = [[0.0] * width for _ in range(width)]
            for choices, weight in outcomes.items():
                share = weight / total
                for row_index in range(width):
                    rows = [
                        padded[next_key][pad + row_index + a][pad + b : pad + b + width]
                        for a, b, next_key in choices
                    ]
                    best = rows[0] if len(rows) == 1 else list(map(max, *rows))
                    line = sums[row_index]
                    sums[row_index] = [s + share * v for s, v in zip(line, best, strict=True)]
            tables[round_index][key] = sums
    return Solution(rounds, radius, tables)


def ceiling(solution: Solution) -> list[float]:
    """The fresh game's value by who keeps first in round 1: seat 0, seat 1, seat 2."""
    return [solution.value((first, (0,) * PLAYERS)) for first in range(PLAYERS)]


def _radius(rounds: int, start_gap: int) -> int:
    """How far the tables reach. A gap beyond SWING x (rounds left) + 1 cannot change
    sign any more, so values stay the same further out and a lookup past the edge may
    read the edge; before that, gaps reach start_gap + SWING x (rounds played)."""
    reach = max(
        min(start_gap + SWING * (played + 1), SWING * (rounds - played - 1) + 1)
        for played in range(rounds)
    )
    return max(start_gap, reach)


def _final_table(radius: int) -> Table:
    """Seat 0's share of first place at the end: 1/k on a k-way tie."""
    table = []
    for d1 in range(-radius, radius + 1):
        row = []
        for d2 in range(-radius, radius + 1):
            row.append(1 / (1 + (d1 == 0) + (d2 == 0)) if d1 <= 0 and d2 <= 0 else 0.0)
        table.append(row)
    return table


def _pad(table: Table, pad: int) -> Table:
    """The table with its edge rows and columns repeated `pad` times on every side."""
    rows = [[row[0]] * pad + row + [row[-1]] * pad for row in table]
    return [rows[0]] * pad + rows + [rows[-1]] * pad


def _next_keys(outcomes: dict[Key, Counter[tuple[Move, ...]]]) -> set[Key]:
    return {move[2] for counter in outcomes.values() for choices in counter for move in choices}


def _moves(
    rounds: int, starts: tuple[Key, ...], policy: Policy | None, opponent: Policy
) -> list[dict[Key, Counter[tuple[Move, ...]]]]:
    """For each round and reachable key: seat 0's keeps per roll, equal rolls counted."""
    moves: list[dict[Key, Counter[tuple[Move, ...]]]] = []
    keys = set(starts)
    for round_index in range(rounds):
        more_rounds = round_index + 1 < rounds
        here: dict[Key, Counter[tuple[Move, ...]]] = {}
        for key in keys:
            here[key] = Counter(
                round_moves(key, dice, more_rounds, policy, opponent) for dice in DICE
            )
        moves.append(here)
        keys = _next_keys(here)
    return moves


def round_moves(
    key: Key,
    dice: tuple[int, ...],
    more_rounds: bool,
    policy: Policy | None,
    opponent: Policy = greedy_choice,
) -> tuple[Move, ...]:
    """Seat 0's possible keeps with `dice` (the others keep around it by `opponent`),
    sorted."""
    first, sets = key
    lowest = min(dice)
    order = [(first + offset) % PLAYERS for offset in range(PLAYERS)]
    mine = order.index(0)
    taken: list[int] = []
    gains = [0] * PLAYERS
    new_sets = list(sets)
    picker = _normals_keep(
        dice, order[:mine], taken, gains, new_sets, -1, lowest, more_rounds, opponent
    )
    available = [index for index in range(PLAYERS) if index not in taken]
    if policy is not None:
        counts = [new_sets[0] >> index & 1 for index in range(PLAYERS)]
        available = [policy(dice, available, counts, picker < 0, lowest, more_rounds)]
    results = []
    for chosen in available:
        trial_taken = [*taken, chosen]
        trial_gains = list(gains)
        trial_sets = list(new_sets)
        trial_gains[0] += dice[chosen] + SET_GAIN[trial_sets[0] >> chosen & 1]
        trial_sets[0] |= 1 << chosen
        trial_picker = 0 if picker < 0 and dice[chosen] == lowest else picker
        trial_picker = _normals_keep(
            dice,
            order[mine + 1 :],
            trial_taken,
            trial_gains,
            trial_sets,
            trial_picker,
            lowest,
            more_rounds,
            opponent,
        )
        shift1 = trial_gains[1] - trial_gains[0]
        shift2 = trial_gains[2] - trial_gains[0]
        results.append((shift1, shift2, (trial_picker, tuple(trial_sets))))
    return tuple(sorted(results))


def _normals_keep(
    dice: tuple[int, ...],
    seats: list[int],
    taken: list[int],
    gains: list[int],
    sets: list[int],
    picker: int,
    lowest: int,
    more_rounds: bool,
    opponent: Policy,
) -> int:
    """The opponents in `seats` keep in turn (updating the lists); return the Picker so far."""
    for seat in seats:
        available = [index for index in range(PLAYERS) if index not in taken]
        counts = [sets[seat] >> index & 1 for index in range(PLAYERS)]
        chosen = opponent(dice, available, counts, picker < 0, lowest, more_rounds)
        taken.append(chosen)
        gains[seat] += dice[chosen] + SET_GAIN[counts[chosen]]
        sets[seat] |= 1 << chosen
        if picker < 0 and dice[chosen] == lowest:
            picker = seat
    return picker
