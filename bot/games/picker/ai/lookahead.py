"""Hard's look-ahead: each die it may keep, played out to the game's end many times.

Hard plays it at 4 to 8 players; at 3 it plays the exact tables of exact.py once they
are built, and this look-ahead before that or where the tables do not reach.

The opponents are modelled as a mix of two rules (greedy.py): Normal, and a greedy
player that counts the colour bonus in full, each opponent keeping by the rule drawn
for it in that rollout with the chance read from the record of the game
(reading.greedy_chances): Hard assumes no one rule but learns which one fits. A
rollout draws those rules and the rolls of the later rounds, the same for every
candidate (common random numbers, so the comparison is fair with few rollouts). After
Hard's keep the others finish the round; in later rounds Hard keeps the die that leaves
it best placed once the round is over (its lead plus the worth of its seat next round),
and in the last round the die with the best exact outcome. In the game's last round
nothing is rolled, and every combination of the later keepers' rules is weighed by its
chance instead (exact). A candidate's value is its average reward: the share of first
place Hard gets (1/k on a k-way tie) plus a little for the score margin, which separates
candidates that win equally often. The work per decision is bounded by a budget of
simulated picks, not by a clock, so a decision is reproducible for a given rng.

No player can win more than 41.0% of 3-player games against two Normals, nor more than
46.5% against two greedy players (the exact optimum over every roll,
benchmarks/support/picker_ceiling.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.picker.ai.greedy import GREEDY_SET_WEIGHT, SET_GAIN, SET_WEIGHT, greedy_choice
from bot.games.picker.ai.reading import greedy_chances
from bot.games.picker.engine import MAX_PLAYERS, MIN_PLAYERS, Game, RandomSource
from bot.games.picker.engine.colours import COLOUR_INDEX
from bot.games.picker.engine.scoring import colour_bonus

# The work of a decision, in simulated keeps: a rollout round costs n keeps plus about
# n*n/2 for Hard's own planned keep. The opponents' rules drawn per rollout add noise:
# 20,000 gained about 2 points over 12,000 against four greedy players (5 players);
# 28,000 gained nothing against two look-ahead bots (-0.1 points, 600 paired games).
# Decision CPU p99 (2,400 games): 29.8 ms at 3 players, 22.3 at 5, 22.6 at 8.
PICK_BUDGET = 20_000
MIN_ROLLOUTS = 4  # per candidate, however long the game still is
MARGIN_WEIGHT = 0.02  # reward per point of margin over the best opponent (0.05: no gain)
BONUS = tuple(colour_bonus(k) for k in range(32))
SEAT_WEIGHT = 0.6  # how much of a seat's expected die a rollout's Hard plays for (0.8: no gain)
# ...and of a colour-bonus step: a colour kept again now is often kept again later anyway.
# 0.3 won 1.4 points more against two look-ahead bots but 2.4 fewer against four greedy
# players (5 players), 0.7 less against two greedy (600-900 paired games each); at 3
# players over 2,400 paired games: +0.6 against look-ahead bots, 0.0 against greedy,
# -0.3 against Normals, so no weight by player count either.
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


def candidate_values(
    game: Game,
    rng: RandomSource,
    budget: int = PICK_BUDGET,
    chances: Sequence[float] | None = None,
    margin: float = MARGIN_WEIGHT,
) -> dict[int, float]:
    """The average rollout reward of keeping each die on the table, by colour index.

    `chances` are, per seat, how likely it keeps like a greedy player rather than like
    Normal (default: as read from the game's record, reading.greedy_chances). `margin`:
    the reward per point of margin over the best opponent (0: the share of first place
    alone, the chance to win a review judges by).
    """
    start = Position.of(game)
    if chances is None:
        chances = greedy_chances(game)
    candidates = [index for index, taken in enumerate(start.taken) if not taken]
    futures: list[Future]
    if start.rounds_left == 0:
        futures = _last_round_futures(start, chances)
    else:
        count = start.players
        per_rollout = count + start.rounds_left * count * (2 + count) // 2
        rollouts = max(MIN_ROLLOUTS, budget // (per_rollout * len(candidates)))
        if len(candidates) == 1:
            rollouts = 1  # nothing to choose: one play-out is the value shown
        share = 1 / rollouts
        futures = []
        for _ in range(rollouts):
            rolls = _future_rolls(rng, count, start.rounds_left)
            futures.append((rolls, _draw_weights(rng, chances, start.me), share))
    return {
        index: sum(
            share * _play_out(start, index, rolls, weights, margin)
            for rolls, weights, share in futures
        )
        for index in candidates
    }


Future = tuple[list[list[int]], list[float], float]  # rolls, each seat's set weight, chance


def _draw_weights(rng: RandomSource, chances: Sequence[float], me: int) -> list[float]:
    """Each opponent's rule for one rollout: greedy with its chance, else Normal."""
    draw = rng.random
    return [
        GREEDY_SET_WEIGHT if seat != me and draw() < chance else SET_WEIGHT
        for seat, chance in enumerate(chances)
    ]


def _last_round_futures(start: Position, chances: Sequence[float]) -> list[Future]:
    """In the last round nothing is rolled any more: every combination of rules for the
    opponents still to keep after Hard, with its chance (exact, at most 2**7)."""
    count = start.players
    later = [(start.first + offset) % count for offset in range(start.picks + 1, count)]
    futures: list[Future] = []
    for greedy_mask in range(1 << len(later)):
        weights = [SET_WEIGHT] * count
        chance = 1.0
        for bit, seat in enumerate(later):
            if greedy_mask >> bit & 1:
                weights[seat] = GREEDY_SET_WEIGHT
                chance *= chances[seat]
            else:
                chance *= 1 - chances[seat]
        if chance:  # a rule known for certain leaves the other combinations nothing
            futures.append(([], weights, chance))
    return futures


def _future_rolls(rng: RandomSource, count: int, rounds: int) -> list[list[int]]:
    draw = rng.random
    rolls = []
    for _ in range(rounds):
        dice = [int(draw() * 6) + 1 for _ in range(count)]
        while dice.count(dice[0]) == count:  # all equal: the rules roll again
            dice = [int(draw() * 6) + 1 for _ in range(count)]
        rolls.append(dice)
    return rolls


def _play_out(
    start: Position,
    index: int,
    rolls: list[list[int]],
    weights: list[float],
    margin: float = MARGIN_WEIGHT,
) -> float:
    """Keep die `index`, let the others finish the round, then play the remaining rounds
    with `rolls`; return Hard's reward at the end.

    Each opponent keeps by its rule for this rollout (`weights`: its colour-bonus weight).
    Hard keeps, in each round, the die that leaves it best placed once the round is over
    (`_planned_pick`), and in the last round the die with the best exact outcome.
    """
    count, me = start.players, start.me
    counts = [list(row) for row in start.counts]
    scores = list(start.scores)
    dice: Sequence[int] = start.dice
    first, offset, picker = start.first, start.picks, start.picker
    available = [i for i, taken in enumerate(start.taken) if not taken]
    more_rounds = start.rounds_left > 0
    last = len(rolls)
    round_index = 0
    while True:
        lowest = min(dice)
        for turn in range(offset, count):
            seat = (first + turn) % count
            row = counts[seat]
            if seat != me:
                chosen = greedy_choice(
                    dice, available, row, picker < 0, lowest, more_rounds, weights[seat]
                )
            elif round_index == 0:
                chosen = index
            elif not more_rounds:
                return _best_last_pick(
                    dice, available, counts, scores, first, turn, weights, margin
                )
            else:
                chosen = _planned_pick(
                    dice, available, counts, scores, first, turn, picker, weights
                )
            available.remove(chosen)
            scores[seat] += dice[chosen] + SET_GAIN[row[chosen]]
            row[chosen] += 1
            if picker < 0 and dice[chosen] == lowest:
                picker = seat
        if round_index == last:
            return _reward(scores, me, margin)
        dice = rolls[round_index]
        round_index += 1
        more_rounds = round_index < last
        first, offset, picker = picker, 0, -1
        available = list(range(count))


def _planned_pick(
    dice: Sequence[int],
    available: list[int],
    counts: list[list[int]],
    scores: list[int],
    first: int,
    offset: int,
    picker: int,
    weights: list[float],
) -> int:
    """Hard's keep in a rollout round before the last: the die after which, once the
    others finish the round, Hard's lead over the others' average plus the worth of its
    seat in the next round's order is largest."""
    count = len(scores)
    me = (first + offset) % count
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
        round_picker = _others_finish(
            dice, left, counts, trial, first, offset, round_picker, weights, True
        )
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
    dice: Sequence[int],
    available: list[int],
    counts: list[list[int]],
    scores: list[int],
    first: int,
    offset: int,
    weights: list[float],
    margin: float = MARGIN_WEIGHT,
) -> float:
    """Hard's best reward when it keeps next in the game's last round (exact for these
    rules). Each seat keeps once a round, so the rest of the round only reads `counts`."""
    me = (first + offset) % len(scores)
    mine_row = counts[me]
    best = -1e9
    for mine in available:
        trial = list(scores)
        trial[me] += dice[mine] + SET_GAIN[mine_row[mine]]
        left = [index for index in available if index != mine]
        _others_finish(dice, left, counts, trial, first, offset, -1, weights, False)
        best = max(best, _reward(trial, me, margin))
    return best


def _others_finish(
    dice: Sequence[int],
    left: list[int],
    counts: list[list[int]],
    scores: list[int],
    first: int,
    offset: int,
    picker: int,
    weights: list[float],
    more_rounds: bool,
) -> int:
    """The others keep the dice `left` after the keeper at `offset`, each by its rule
    (`weights`), adding to `scores` in place; return the round's Picker. Each seat keeps
    once a round, so the round only reads `counts` (the caller's copy stays right)."""
    count = len(scores)
    lowest = min(dice)
    for later in range(offset + 1, count):
        seat = (first + later) % count
        row = counts[seat]
        chosen = greedy_choice(dice, left, row, picker < 0, lowest, more_rounds, weights[seat])
        left.remove(chosen)
        scores[seat] += dice[chosen] + SET_GAIN[row[chosen]]
        if picker < 0 and dice[chosen] == lowest:
            picker = seat
    return picker


def _reward(scores: list[int], me: int, margin: float = MARGIN_WEIGHT) -> float:
    """Hard's share of first place (1/k on a k-way tie) plus a little for the margin."""
    mine = scores[me]
    best_other = max(score for seat, score in enumerate(scores) if seat != me)
    share = 1.0 / scores.count(mine) if mine >= best_other else 0.0
    return share + margin * (mine - best_other)
