"""What a game's extension does to join the bot: its GroupCog with the score pages
attached, its history recorded at every game's end, and the pager's buttons served."""

from __future__ import annotations

from discord.ext import commands

from bot.history import ui as history_ui
from bot.history.figures import HistoryFigures
from bot.history.recorder import recorder
from bot.storage.results import SqliteResultStore
from bot.ui import platform_of
from bot.ui.game_cog import GameCog


async def add_game(bot: commands.Bot, cog_class: type[GameCog], history: HistoryFigures) -> None:
    """A game's `setup(bot)`: its commands, its score group and its history hook."""
    platform = platform_of(bot)
    platform.sessions.game_over_hooks[cog_class.game.kind] = recorder(history, SqliteResultStore())
    bot.add_dynamic_items(*history_ui.DYNAMIC_ITEMS)  # registered by template: once is once
    cog = cog_class(platform.sessions, platform.live)
    assert cog.app_command is not None  # a GroupCog always has its group
    cog.app_command.add_command(history_ui.score_group(history))
    await bot.add_cog(cog)


async def remove_game(bot: commands.Bot, cog_class: type[GameCog]) -> None:
    """A game's `teardown(bot)`: a reload then adds no second history hook."""
    platform_of(bot).sessions.game_over_hooks.pop(cog_class.game.kind, None)
