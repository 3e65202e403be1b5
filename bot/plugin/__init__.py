"""The contract between the platform and a game: the `GamePlugin` a game gives, the
`Games` the bot serves, and the error a scenario player raises. Below the Discord layer
and below the games, so both import it and neither imports the other's insides."""

from bot.plugin.game_plugin import GamePlugin, GameRenderer, ScenarioPlayer
from bot.plugin.games import Games, UnknownGame
from bot.plugin.scenario_errors import ScenarioError
from bot.plugin.tutorial import Tutorial

__all__ = [
    "GamePlugin",
    "GameRenderer",
    "Games",
    "ScenarioError",
    "ScenarioPlayer",
    "Tutorial",
    "UnknownGame",
]
