"""Shared set-up for the Picker tests: seat names and random play."""

from __future__ import annotations

import random

from bot.games.picker.engine import Colour, Event, Game, Pick, RollDice

NAMES = ("anne", "bob", "cara", "dan", "eve", "fay", "gus", "hal")


def seats(count: int) -> list[str]:
    return list(NAMES[:count])


def random_step(game: Game, rng: random.Random) -> list[Event]:
    """One random legal action: roll while the dice are to be rolled, else keep any die."""
    if game.legal_actions().can_roll:
        return game.roll_with(rng)
    return game.apply(Pick(rng.choice(game.available())))


def pick_all(game: Game, dice: list[int], colours: list[Colour]) -> list[Event]:
    """Roll `dice` and keep `colours` in order; return every event."""
    events = game.apply(RollDice(tuple(dice)))
    for colour in colours:
        events += game.apply(Pick(colour))
    return events
