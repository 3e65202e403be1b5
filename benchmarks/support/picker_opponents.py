"""Two Picker opponents the game's own levels were not built against (issue 28).

Written from the issue's description, apart from Hard's decisions in bot/games/picker/ai,
so that Hard is measured against players it does not model (only the game in plain
numbers, lookahead.Position, is shared: it is data, not a way to play):

- `greedy`: values each die on the table at its number + what it adds to the player's
  colour bonus + 1.5 when keeping it makes the player the Picker (not in the last
  round), and keeps the best (ties: the higher number, then the earlier colour).
- `lookahead`: a Monte Carlo look-ahead: every die on the table is tried on the same
  sampled futures (the rolls of the rounds left), the rest of the game played out by
  the greedy policy for every seat, itself included; it keeps the die with the best
  mean share of first place (1/k on a k-way tie; ties: the better mean margin over the
  best opponent, then the higher number). `samples` futures a decision: the benchmark
  uses LOOKAHEAD_SAMPLES, which costs about 40 ms of CPU a decision in 3-player games.
"""

from __future__ import annotations

from bot.games.picker.ai.lookahead import Position
from bot.games.picker.engine import COLOURS, Colour, Game, RandomSource
from bot.games.picker.engine.scoring import colour_bonus

PICKER_WORTH = 1.5  # the greedy value of becoming the Picker, when another round follows
# What one more die of a colour kept k times adds to the colour bonus, k = 0, 1, ...
ADDS = tuple(colour_bonus(k + 1) - colour_bonus(k) for k in range(32))
# Futures a look-ahead decision samples in the benchmark: about 40 ms of CPU a decision
# over a 3-player game on this machine (measured with --calibrate).
LOOKAHEAD_SAMPLES = 1600


def greedy_index(
    dice: tuple[int, ...] | list[int],
    available: list[int],
    counts: list[int],
    picker_open: bool,
    lowest: int,
    more_rounds: bool,
) -> int:
    """The greedy keep (a colour index) from `available`, for a player whose kept dice
    per colour are `counts`; `picker_open` while nobody has kept `lowest` this round."""
    picker = PICKER_WORTH if picker_open and more_rounds else 0.0
    best, best_key = -1, (-1.0, 0)
    for index in available:
        value = dice[index]
        key = (value + ADDS[counts[index]] + (picker if value == lowest else 0.0), value)
        if key > best_key:
            best, best_key = index, key
    return best


def greedy(game: Game, rng: RandomSource) -> Colour:
    """The greedy player's keep in `game` (`rng` unused: greedy is deterministic)."""
    state = Position.of(game)
    available = [index for index, taken in enumerate(state.taken) if not taken]
    seat = game.current
    index = greedy_index(
        state.dice,
        available,
        state.counts[seat],
        state.picker < 0,
        min(state.dice),
        state.rounds_left > 0,
    )
    return COLOURS[index]


def lookahead(game: Game, rng: RandomSource, samples: int = LOOKAHEAD_SAMPLES) -> Colour:
    """The look-ahead player's keep in `game`, from `samples` sampled futures."""
    state = Position.of(game)
    candidates = [index for index, taken in enumerate(state.taken) if not taken]
    if len(candidates) == 1:
        return COLOURS[candidates[0]]
    count = state.players
    if state.rounds_left == 0:
        samples = 1  # nothing is random any more
    futures = [_future(rng, count, state.rounds_left) for _ in range(samples)]
    best, best_key = candidates[0], (-1.0, -1e9, 0)
    for index in candidates:
        share = margin = 0.0
        for rolls in futures:
            result = _play_out(state, index, rolls)
            share += result[0]
            margin += result[1]
        key = (share, margin, state.dice[index])
        if key > best_key:
            best, best_key = index, key
    return COLOURS[best]


def _future(rng: RandomSource, count: int, rounds: int) -> list[list[int]]:
    """The rolls of `rounds` rounds, all-equal rolls rolled again as the rules say."""
    draw = rng.random
    rolls = []
    for _ in range(rounds):
        dice = [int(draw() * 6) + 1 for _ in range(count)]
        while dice.count(dice[0]) == count:
            dice = [int(draw() * 6) + 1 for _ in range(count)]
        rolls.append(dice)
    return rolls


def _play_out(state: Position, index: int, rolls: list[list[int]]) -> tuple[float, int]:
    """Keep die `index`, then every seat plays greedy to the end over `rolls`: the
    share of first place and the margin over the best other score."""
    count, me = state.players, state.me
    counts = [list(row) for row in state.counts]
    scores = list(state.scores)
    dice: tuple[int, ...] | list[int] = state.dice
    available = [i for i, taken in enumerate(state.taken) if not taken]
    picker = state.picker
    first, start = state.first, state.picks
    rounds_left = state.rounds_left
    next_roll = 0
    while True:
        lowest = min(dice)
        more_rounds = rounds_left > 0
        for offset in range(start, count):
            seat = (first + offset) % count
            row = counts[seat]
            if offset == start and next_roll == 0:
                chosen = index
            else:
                chosen = greedy_index(dice, available, row, picker < 0, lowest, more_rounds)
            available.remove(chosen)
            scores[seat] += dice[chosen] + ADDS[row[chosen]]
            row[chosen] += 1
            if picker < 0 and dice[chosen] == lowest:
                picker = seat
        if next_roll == len(rolls):
            break
        dice = rolls[next_roll]
        next_roll += 1
        rounds_left -= 1
        first, picker, start = picker, -1, 0
        available = list(range(count))
    mine = scores[me]
    best_other = max(score for seat, score in enumerate(scores) if seat != me)
    share = 1.0 / scores.count(mine) if mine >= best_other else 0.0
    return share, mine - best_other
