"""Hard's look-ahead: each die it may keep, played out to the game's end many times.

After Hard keeps a die, the rest of the round is fixed (the others play Normal, which
is deterministic); the later rounds are rolled at random, the same rolls for every
candidate (common random numbers, so the comparison is fair with few rollouts), with
Normal opponents and Hard playing the full-bonus greedy rule. A candidate's value is
its average reward: the share of first place Hard gets (1/k on a k-way tie) plus a
little for the score margin, which separates candidates that win equally often.
The work per decision is bounded by a budget of simulated picks, not by a clock, so a
decision is reproducible for a given rng.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.games.picker.ai.greedy import NORMAL, SET_GAIN, Weights, greedy_choice
from bot.games.picker.engine import Game, RandomSource
from bot.games.picker.engine.colours import COLOUR_INDEX
from bot.games.picker.engine.scoring import colour_bonus

PICK_BUDGET = 9_000  # simulated picks per decision (about 25 ms on one idle core)
MIN_ROLLOUTS = 8  # per candidate, however long the game still is
MARGIN_WEIGHT = 0.02  # reward per point of margin over the best opponent
SELF = Weights(set_weight=0.4, picker_value=1.5)  # Hard's own play in the rollouts
BONUS = tuple(colour_bonus(k) for k in range(32))


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
    points: list[int]
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
        return cls(
            players=count,
            me=game.current,
            first=game.first,
            dice=game.dice,
            taken=taken,
            picks=len(game.picks),
            picker=-1 if game.picker is None else game.picker,
            counts=counts,
            points=[game.points[player] for player in game.players],
            rounds_left=game.rounds_total - game.round - 1,
        )


def candidate_values(game: Game, rng: RandomSource, budget: int = PICK_BUDGET) -> dict[int, float]:
    """The average rollout reward of keeping each die on the table, by colour index."""
    start = Position.of(game)
    candidates = [index for index, taken in enumerate(start.taken) if not taken]
    count = start.players
    if start.rounds_left == 0 or len(candidates) == 1:
        rollouts = 1  # nothing random is left: one play-out is exact
    else:
        per_rollout = count * start.rounds_left
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
    points = list(start.points)
    taken = list(start.taken)
    dice, count = start.dice, start.players
    lowest = min(dice)
    picker = start.picker
    more_rounds = start.rounds_left > 0
    seat = start.me
    for offset in range(start.picks, count):
        seat = (start.first + offset) % count
        if offset == start.picks:
            chosen = index
        else:
            available = [i for i in range(count) if not taken[i]]
            chosen = greedy_choice(
                dice, available, counts[seat], picker < 0, lowest, more_rounds, NORMAL
            )
        taken[chosen] = True
        counts[seat][chosen] += 1
        points[seat] += dice[chosen]
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
        points=points,
        rounds_left=start.rounds_left,
    )


def _play_out(after: Position, rolls: list[list[int]]) -> float:
    """Play the remaining rounds with `rolls`; return Hard's reward at the end.

    Opponents play Normal; Hard plays the greedy rule with `SELF` weights, except in
    the last round, where it keeps the die with the best exact outcome.
    """
    count, me = after.players, after.me
    counts = [list(row) for row in after.counts]
    points = list(after.points)
    first = after.first
    last = len(rolls) - 1
    normal_sets, normal_picker = NORMAL.set_weight, NORMAL.picker_value
    self_sets, self_picker = SELF.set_weight, SELF.picker_value
    for round_index, dice in enumerate(rolls):
        lowest = min(dice)
        available = list(range(count))
        picker = -1
        for offset in range(count):
            seat = (first + offset) % count
            row = counts[seat]
            if seat == me and round_index == last:
                return _best_last_pick(dice, available, counts, points, first, offset, picker, me)
            if seat == me:
                set_weight, picker_bonus = self_sets, self_picker
            else:
                set_weight, picker_bonus = normal_sets, normal_picker
            if picker >= 0 or round_index == last:
                picker_bonus = 0.0
            chosen, best_key = -1, -1.0
            for index in available:
                value = dice[index]
                key = value + set_weight * SET_GAIN[row[index]]
                if value == lowest:
                    key += picker_bonus
                if key > best_key:
                    chosen, best_key = index, key
            available.remove(chosen)
            row[chosen] += 1
            points[seat] += dice[chosen]
            if picker < 0 and dice[chosen] == lowest:
                picker = seat
        first = picker
    return _reward(counts, points, me)


def _best_last_pick(
    dice: list[int],
    available: list[int],
    counts: list[list[int]],
    points: list[int],
    first: int,
    offset: int,
    picker: int,
    me: int,
) -> float:
    """Hard's best reward when it keeps next in the game's last round (exact)."""
    count = len(points)
    lowest = min(dice)
    best = -1e9
    for mine in available:
        trial_counts = [list(row) for row in counts]
        trial_points = list(points)
        left = [index for index in available if index != mine]
        trial_counts[me][mine] += 1
        trial_points[me] += dice[mine]
        for later in range(offset + 1, count):
            seat = (first + later) % count
            chosen = greedy_choice(dice, left, trial_counts[seat], False, lowest, False, NORMAL)
            left.remove(chosen)
            trial_counts[seat][chosen] += 1
            trial_points[seat] += dice[chosen]
        best = max(best, _reward(trial_counts, trial_points, me))
    return best


def _reward(counts: list[list[int]], points: list[int], me: int) -> float:
    """Hard's share of first place (1/k on a k-way tie) plus a little for the margin."""
    scores = [points[seat] + sum(BONUS[k] for k in counts[seat]) for seat in range(len(points))]
    mine = scores[me]
    best_other = max(score for seat, score in enumerate(scores) if seat != me)
    share = 1.0 / scores.count(mine) if mine >= best_other else 0.0
    return share + MARGIN_WEIGHT * (mine - best_other)


def new_rng(seed: int) -> random.Random:
    """A seeded rng for callers without one of their own (hints)."""
    return random.Random(seed)
