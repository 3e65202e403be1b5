"""The one place that names the games: every playable game by kind."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.pickomino import scenario as pickomino_scenario
from bot.games.pickomino.adapter import PickominoAdapter
from bot.sessions.adapter import GameAdapter

ScenarioPlayer = Callable[[dict[str, Any]], dict[str, Any]]


def all_adapters() -> dict[str, GameAdapter]:
    """Every playable game by kind."""
    adapters: list[GameAdapter] = [PickominoAdapter()]
    return {adapter.kind: adapter for adapter in adapters}


def scenario_player(kind: str) -> ScenarioPlayer | None:
    """The function that replays a scenario file of game `kind`, if the game has one."""
    players: dict[str, ScenarioPlayer] = {"pickomino": pickomino_scenario.run_scenario}
    return players.get(kind)
