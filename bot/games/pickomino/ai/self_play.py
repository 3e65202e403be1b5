"""Whole games played by computer players, as a session would store them: the players in
seat order and every event as stored (`event_to_dict`). For reviews' tests and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.games.pickomino.ai.players import Level, carry_out, decide
from bot.games.pickomino.engine import Game, Rules
from bot.games.pickomino.engine.events import event_to_dict

MAX_ACTIONS = 20_000


def play_levels(
    levels: Sequence[Level], rng: random.Random, rules: Rules | None = None, first: int = 0
) -> tuple[list[str], list[dict[str, Any]]]:
    """A game of computer players at `levels` (seat order), played to its end."""
    players = [f"p{seat}" for seat in range(len(levels))]
    level_of = dict(zip(players, levels, strict=True))
    game = Game(players, rules, first=first)
    events: list[dict[str, Any]] = []
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return players, events
        decision = decide(game, level_of[game.current_player])
        events += (event_to_dict(event) for event in carry_out(game, decision, rng))
    raise RuntimeError("the game did not end")
