"""The one place outside a game's own folders that names the games."""

from __future__ import annotations

from bot.games.picker.plugin import PICKER
from bot.games.pickomino.plugin import PICKOMINO
from bot.games.plugin import GamePlugin, ScenarioPlayer
from bot.sessions.adapter import AnyAdapter

GAMES: tuple[GamePlugin, ...] = (PICKOMINO, PICKER)
_BY_KIND = {game.kind: game for game in GAMES}


def plugin(kind: str) -> GamePlugin:
    """The game of a session's `kind`; KeyError for a kind no game has."""
    return _BY_KIND[kind]


def all_adapters() -> dict[str, AnyAdapter]:
    """Every playable game's adapter by kind."""
    return {game.kind: game.adapter for game in GAMES}


def scenario_player(kind: str) -> ScenarioPlayer | None:
    """The function that replays a scenario file of game `kind`, if the game has one."""
    game = _BY_KIND.get(kind)
    return None if game is None else game.play_scenario
