"""Picker's Hard as it was before issue 28, kept to measure today's Hard against it.

Hard at main 5e527e2 was today's look-ahead (bot/games/picker/ai/lookahead.py) with the
opponents modelled as Normal only and a budget of 12,000 picks, counted without the
first round's n keeps. `todays_hard(game, rng)` runs today's `candidate_values` with
every greedy chance 0 and the rollouts that budget gave (ties: the higher number, then
the earlier colour). Only the draws of the rng differ from the old copy.
"""

from __future__ import annotations

from bot.games.picker.ai.lookahead import MIN_ROLLOUTS, candidate_values
from bot.games.picker.engine import COLOURS, Colour, Game, RandomSource

PICK_BUDGET = 12_000


def todays_hard(game: Game, rng: RandomSource) -> Colour:
    """Hard's keep before issue 28: the best average over play-outs of each choice."""
    dice = game.dice
    assert dice is not None
    count = len(game.players)
    rounds_left = game.rounds_total - game.round - 1
    candidates = count - len(game.picks)
    # The old rollout count, as a budget in today's count of a rollout's picks.
    old_rollout = rounds_left * count * (2 + count) // 2
    rollouts = max(MIN_ROLLOUTS, PICK_BUDGET // max(1, old_rollout * candidates))
    budget = rollouts * (count + old_rollout) * candidates
    values = candidate_values(game, rng, budget, chances=[0.0] * count)
    return COLOURS[max(values, key=lambda i: (values[i], dice[i], -i))]
