"""Picker's Hard as it was before issue 28, kept to measure today's Hard against it.

A copy of bot/games/picker/ai/lookahead.py as of main 5e527e2: each die played out to
the game's end over sampled rolls, the others modelled as Normal (deterministic), Hard
planning its own later keeps one round ahead and playing the last round exactly.
`todays_hard(game, rng)` is its keep (ties: the higher number, then the earlier colour).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.games.picker.ai.greedy import SET_GAIN, greedy_choice
from bot.games.picker.engine import COLOURS, MAX_PLAYERS, MIN_PLAYERS, Colour, Game, RandomSource
from bot.games.picker.engine.colours import COLOUR_INDEX
from bot.games.picker.engine.scoring import colour_bonus

# The work of a decision, in simulated keeps: a rollout round costs n keeps plus about
# n*n/2 for Hard's own planned keep. 3 players gained nothing from twice this (measured);
# the slowest decisions (8 players, first round) stay near 20 ms of CPU.
PICK_BUDGET = 12_000
MIN_ROLLOUTS = 4  # per candidate, however long the game still is
MARGIN_WEIGHT = 0.02  # reward per point of margin over the best opponent
BONUS = tuple(colour_bonus(k) for k in range(32))
SEAT_WEIGHT = 0.6  # how much of a seat's expected die a rollout's Hard plays for
# ...and of a colour-bonus step: a colour kept again now is often kept again later anyway.
PLANNED_SET_WEIGHT = 0.5


def _seat_worth(players: int) -> tuple[float, ...]:
    """What keeping k-th in a round is worth against the others, for k = 0, 1, ...

    The k-th keeper gets about the k-th highest die: its expectation less the mean 3.5,
    scaled by n/(n-1) since the others' share falls by as much. All dice equal are
    rolled again, which leaves each order statistic's expectation over the other rolls
    (E_k - 3.5 P(equal)) / (1 - P(equal)).
    """
    equal = 6 / 6**players
    worths = []
    for rank in range(1, players + 1):
        expected = sum(
            sum(
                math.comb(players, high) * p**high * (1 - p) ** (players - high)
                for high in range(rank, players + 1)
            )
            for p in ((7 - value) / 6 for value in range(1, 7))
        )
        conditioned = (expected - 3.5 * equal) / (1 - equal)
        worths.append(SEAT_WEIGHT * (conditioned - 3.5) * players / (players - 1))
    return tuple(worths)


SEAT_WORTH = {players: _seat_worth(players) for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


@dataclass(slots=True)
class Position:
    """A game reduced to numbers: seats 0..n-1, colours by index."""

    players: int
    me: int
    first: int
    dice: tuple[int, ...]
    taken: list[bool]
    picks: int  # dice kept this round
    picker: int  # seat of this round's Picker, -1 while nobody
    counts: list[list[int]]  # per seat, per colour: dice kept
    scores: list[int]  # per seat: numbers kept plus colour bonus so far
    rounds_left: int  # after the round being played

    @classmethod
    def of(cls, game: Game) -> Position:
        count = len(game.players)
        assert game.dice is not None
        counts = []
        for player in game.players:
            row = [0] * count
            for colour, _ in game.kept[player]:
                row[COLOUR_INDEX[colour]] += 1
            counts.append(row)
        taken = [False] * count
        for colour in game.picks:
            taken[COLOUR_INDEX[colour]] = True
        scores = [
            game.points[player] + sum(BONUS[k] for k in row)
            for player, row in zip(game.players, counts, strict=True)
        ]
        return cls(
            players=count,
            me=game.current,
            first=game.first,
            dice=game.dice,
            taken=taken,
            picks=len(game.picks),
            picker=-1 if game.picker is None else game.picker,
            counts=counts,
            scores=scores,
            rounds_left=game.rounds_total - game.round - 1,
        )


def todays_hard(game: Game, rng: RandomSource) -> Colour:
    """Hard's keep before issue 28: the best average over play-outs of each choice."""
    values = candidate_values(game, rng)
    dice = game.dice
    assert dice is not None
    return COLOURS[max(values, key=lambda i: (values[i], dice[i], -i))]


def candidate_values(game: Game, rng: RandomSource, budget: int = PICK_BUDGET) -> dict[int, float]:
    """The average rollout reward of keeping each die on the table, by colour index."""
    start = Position.of(game)
    candidates = [index for index, taken in enumerate(start.taken) if not taken]
    count = start.players
    if start.rounds_left == 0 or len(candidates) == 1:
        rollouts = 1  # nothing random is left: one play-out is exact
    else:
        per_rollout = start.rounds_left * count * (2 + count) // 2
        rollouts = max(MIN_ROLLOUTS, budget // (per_rollout * len(candidates)))
    futures = [_future_rolls(rng, count, start.rounds_left) for _ in range(rollouts)]
    values = {}
    for index in candidates:
        after = _after_my_pick(start, index)
        values[index] = sum(_play_out(after, rolls) for rolls in futures) / rollouts
    return values


def _future_rolls(rng: RandomSource, count: int, rounds: int) -> list[list[int]]:
    draw = rng.random
    rolls = []
    for _ in range(rounds):
        dice = [int(draw() * 6) + 1 for _ in range(count)]
        while dice.count(dice[0]) == count:  # all equal: the rules roll again
            dice = [int(draw() * 6) + 1 for _ in range(count)]
        rolls.append(dice)
    return rolls


def _after_my_pick(start: Position, index: int) -> Position:
    """The position once Hard keeps die `index` and the others finish the round."""
    counts = [list(row) for row in start.counts]
    scores = list(start.scores)
    taken = list(start.taken)
    dice, count = start.dice, start.players
    lowest = min(dice)
    picker = start.picker
    more_rounds = start.rounds_left > 0
    for offset in range(start.picks, count):
        seat = (start.first + offset) % count
        if offset == start.picks:
            chosen = index
        else:
            available = [i for i in range(count) if not taken[i]]
            chosen = greedy_choice(dice, available, counts[seat], picker < 0, lowest, more_rounds)
        taken[chosen] = True
        scores[seat] += dice[chosen] + SET_GAIN[counts[seat][chosen]]
        counts[seat][chosen] += 1
        if picker < 0 and dice[chosen] == lowest:
            picker = seat
    return Position(
        players=count,
        me=start.me,
        first=picker,
        dice=(),
        taken=[],
        picks=0,
        picker=-1,
        counts=counts,
        scores=scores,
        rounds_left=start.rounds_left,
    )


def _play_out(after: Position, rolls: list[list[int]]) -> float:
    """Play the remaining rounds with `rolls`; return Hard's reward at the end.

    Opponents play Normal. Hard keeps, in each round, the die that leaves it best
    placed once the round is over (`_planned_pick`), and in the last round the die with
    the best exact outcome.
    """
    count, me = after.players, after.me
    counts = [list(row) for row in after.counts]
    scores = list(after.scores)
    first = after.first
    last = len(rolls) - 1
    for round_index, dice in enumerate(rolls):
        lowest = min(dice)
        available = list(range(count))
        picker = -1
        for offset in range(count):
            seat = (first + offset) % count
            row = counts[seat]
            if seat == me:
                if round_index == last:
                    return _best_last_pick(dice, available, counts, scores, first, offset, me)
                chosen = _planned_pick(dice, available, counts, scores, first, offset, picker, me)
            else:
                more_rounds = round_index < last
                chosen = greedy_choice(dice, available, row, picker < 0, lowest, more_rounds)
            available.remove(chosen)
            scores[seat] += dice[chosen] + SET_GAIN[row[chosen]]
            row[chosen] += 1
            if picker < 0 and dice[chosen] == lowest:
                picker = seat
        first = picker
    return _reward(scores, me)


def _planned_pick(
    dice: list[int],
    available: list[int],
    counts: list[list[int]],
    scores: list[int],
    first: int,
    offset: int,
    picker: int,
    me: int,
) -> int:
    """Hard's keep in a rollout round before the last: the die after which, once the
    Normals finish the round, Hard's lead over the others' average plus the worth of
    its seat in the next round's order is largest."""
    count = len(scores)
    lowest = min(dice)
    seat_worth = SEAT_WORTH[count]
    mine_row = counts[me]
    before = sum(scores)
    best, best_key = available[0], -1e9
    for mine in available:
        gain = dice[mine] + SET_GAIN[mine_row[mine]]
        trial = list(scores)
        trial[me] += gain
        round_picker = me if picker < 0 and dice[mine] == lowest else picker
        left = [index for index in available if index != mine]
        round_picker = _normals_finish(dice, left, counts, trial, first, offset, round_picker)
        others = sum(trial) - before - gain
        key = (
            dice[mine]
            + PLANNED_SET_WEIGHT * SET_GAIN[mine_row[mine]]
            - others / (count - 1)
            + seat_worth[(me - round_picker) % count]
        )
        if key > best_key:
            best, best_key = mine, key
    return best


def _best_last_pick(
    dice: list[int],
    available: list[int],
    counts: list[list[int]],
    scores: list[int],
    first: int,
    offset: int,
    me: int,
) -> float:
    """Hard's best reward when it keeps next in the game's last round (exact).

    Each seat keeps once a round, so the rest of the round only reads `counts`.
    """
    mine_row = counts[me]
    best = -1e9
    for mine in available:
        trial = list(scores)
        trial[me] += dice[mine] + SET_GAIN[mine_row[mine]]
        left = [index for index in available if index != mine]
        _normals_finish(dice, left, counts, trial, first, offset, -1, more_rounds=False)
        best = max(best, _reward(trial, me))
    return best


def _normals_finish(
    dice: list[int],
    left: list[int],
    counts: list[list[int]],
    scores: list[int],
    first: int,
    offset: int,
    picker: int,
    more_rounds: bool = True,
) -> int:
    """The Normals keep the dice `left` after the keeper at `offset`, adding to `scores`
    in place; return the round's Picker. Each seat keeps once a round, so the round
    only reads `counts` (the caller's copy stays right for the round)."""
    count = len(scores)
    lowest = min(dice)
    for later in range(offset + 1, count):
        seat = (first + later) % count
        row = counts[seat]
        chosen = greedy_choice(dice, left, row, picker < 0, lowest, more_rounds)
        left.remove(chosen)
        scores[seat] += dice[chosen] + SET_GAIN[row[chosen]]
        if picker < 0 and dice[chosen] == lowest:
            picker = seat
    return picker


def _reward(scores: list[int], me: int) -> float:
    """Hard's share of first place (1/k on a k-way tie) plus a little for the margin."""
    mine = scores[me]
    best_other = max(score for seat, score in enumerate(scores) if seat != me)
    share = 1.0 / scores.count(mine) if mine >= best_other else 0.0
    return share + MARGIN_WEIGHT * (mine - best_other)
