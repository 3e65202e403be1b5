"""The /picker extension: the command group and its score subgroup (Picker's own
history, kept apart from Pickomino's)."""

from __future__ import annotations

from discord.ext import commands

from bot.games.picker.history import PICKER_HISTORY
from bot.history import ui as history_ui
from bot.history.recorder import recorder
from bot.storage.results import SqliteResultStore
from bot.ui import platform_of
from cogs.picker._cog import PickerCog

record_result = recorder(PICKER_HISTORY, SqliteResultStore())


async def setup(bot: commands.Bot) -> None:
    platform = platform_of(bot)
    platform.sessions.game_over_hooks[PickerCog.game.kind] = record_result
    bot.add_dynamic_items(*history_ui.DYNAMIC_ITEMS)
    cog = PickerCog(platform.sessions, platform.live)
    assert cog.app_command is not None  # a GroupCog always has its group
    cog.app_command.add_command(history_ui.score_group(PICKER_HISTORY))
    await bot.add_cog(cog)


async def teardown(bot: commands.Bot) -> None:
    platform_of(bot).sessions.game_over_hooks.pop(PickerCog.game.kind, None)
