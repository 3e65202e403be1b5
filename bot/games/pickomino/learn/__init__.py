"""Pickomino's practice game (/pickomino learn): a short game against one Normal
computer player whose first turns are scripted (script.py) and whose "what now" line
is a coaching line (coaching.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.pickomino.engine import Game
from bot.games.pickomino.learn.script import RULES, ScriptedDice, new_game
from bot.sessions.model import Session


class PickominoTutorial:
    """The Tutorial of bot.plugin.tutorial for Pickomino."""

    computer_players = 1
    level = "normal"

    @property
    def options(self) -> Mapping[str, Any]:
        return RULES.to_dict()

    def new_game(self, players: Sequence[str], rng: Any) -> Game:
        return new_game(players, rng)

    def dice(self, session: Session, rng: Any) -> ScriptedDice:
        return ScriptedDice(lambda: session.game, rng)


PICKOMINO_TUTORIAL = PickominoTutorial()

__all__ = ["PICKOMINO_TUTORIAL", "PickominoTutorial"]
