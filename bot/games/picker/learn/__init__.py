"""Picker's practice game (/picker learn): a short game against two Normal computer
players (Picker needs three seats) whose first rounds are scripted (script.py) and
whose "what now" line is a coaching line (coaching.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.picker.engine import Game
from bot.games.picker.learn.script import ScriptedDice, new_game
from bot.sessions.model import Session


class PickerTutorial:
    """The Tutorial of bot.plugin.tutorial for Picker."""

    computer_players = 2  # the fewest Picker is played with: 3 seats (RULES.md)
    level = "normal"

    @property
    def options(self) -> Mapping[str, Any]:
        return {"first_player": "host"}

    def new_game(self, players: Sequence[str], rng: Any) -> Game:
        return new_game(players, rng)

    def dice(self, session: Session, rng: Any) -> ScriptedDice:
        return ScriptedDice(lambda: session.game, rng)


PICKER_TUTORIAL = PickerTutorial()

__all__ = ["PICKER_TUTORIAL", "PickerTutorial"]
