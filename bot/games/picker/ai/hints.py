"""Hints for the player to move: Hard's choice, with why, as structured data.

The lead's UI words it (through bot.i18n.t); nothing here is text for a player.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from bot.games.picker.ai.greedy import SET_GAIN
from bot.games.picker.ai.players import hard_values
from bot.games.picker.engine import COLOURS, Colour, Game, RandomSource

HINT_SEED = 0  # the same position always gets the same hint


class HintReason(StrEnum):
    """The main reason for the recommended die, checked in this order."""

    HIGHEST = "highest"  # it shows the highest number on the table
    PICKER = "picker"  # keeping it makes the player keep first next round
    COLOUR_SET = "colour_set"  # it adds to a colour the player has kept already
    LOOKAHEAD = "lookahead"  # none of those: it plays out best over the rounds left


@dataclass(frozen=True, slots=True)
class HintOption:
    """One die the player may keep and how well keeping it plays out."""

    colour: Colour
    value: int
    score: float  # Hard's value: its share of first place (rollouts: plus a little for margin)


@dataclass(frozen=True, slots=True)
class Hint:
    player: str
    colour: Colour  # the recommended die
    value: int
    reason: HintReason
    kept_before: int  # how often the player kept this colour before
    becomes_picker: bool  # keeping it makes the player keep first next round
    options: tuple[HintOption, ...]  # every die on the table, best first


def hint_for(
    game: Game, rng: RandomSource | None = None, normal_seats: Collection[int] = ()
) -> Hint:
    """Hard's choice for the player to move, and why; ValueError when no die is to be kept.
    `normal_seats`: seats known to keep by Normal's rule (players.decide)."""
    dice = game.dice
    if dice is None or game.is_over:
        raise ValueError("no die is on the table to keep")
    values = hard_values(game, rng or random.Random(HINT_SEED), normal_seats=normal_seats)
    order = sorted(values, key=lambda i: (-values[i], -dice[i], i))
    options = tuple(HintOption(COLOURS[i], dice[i], values[i]) for i in order)
    best = options[0]
    player = game.current_player
    kept_before = sum(1 for colour, _ in game.kept[player] if colour is best.colour)
    more_rounds = game.round + 1 < game.rounds_total
    becomes_picker = more_rounds and game.picker is None and best.value == game.lowest
    return Hint(
        player=player,
        colour=best.colour,
        value=best.value,
        reason=_reason(best, options, kept_before, becomes_picker),
        kept_before=kept_before,
        becomes_picker=becomes_picker,
        options=options,
    )


def _reason(
    best: HintOption, options: tuple[HintOption, ...], kept_before: int, becomes_picker: bool
) -> HintReason:
    if best.value == max(option.value for option in options):
        return HintReason.HIGHEST
    if becomes_picker:
        return HintReason.PICKER
    if SET_GAIN[kept_before] > 0:
        return HintReason.COLOUR_SET
    return HintReason.LOOKAHEAD
