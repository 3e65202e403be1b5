"""Whole Picker games played by computer players, as a session would store them: the
players in seat order and every event as stored (`event_to_dict`), the first round's
roll left out as the session leaves it out (it is made when the game begins). For
reviews' tests and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.games.picker.ai.players import Level, decide
from bot.games.picker.engine import Game, Phase, event_to_dict


def play_levels(
    levels: Sequence[Level], rng: random.Random, first: int = 0
) -> tuple[list[str], list[dict[str, Any]]]:
    """A game of computer players at `levels` (seat order), played to its end; every
    Normal seat is known to Hard, as the bot tells it its own Normal players."""
    players = [f"p{seat}" for seat in range(len(levels))]
    normal = frozenset(seat for seat, level in enumerate(levels) if level is Level.NORMAL)
    game = Game(players, first=first)
    game.roll_with(rng)  # as the session's new game: not among the events
    events: list[dict[str, Any]] = []
    while not game.is_over:
        pick = decide(game, levels[game.current], rng, normal_seats=normal)
        caused = game.apply(pick)
        if game.phase is Phase.ROLL:
            caused += game.roll_with(rng)
        events += (event_to_dict(event) for event in caused)
    return players, events
