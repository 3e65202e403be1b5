"""The /pickomino extension: the command group and its score subgroup.

The shared machinery (the session component, clicks, live messages) is installed by
the platform (bot/ui/__init__.py) before any game's extension loads; the score
subgroup (`bot.history.ui.score_group`, for Pickomino's history figures) is attached
under /pickomino, and its pager buttons are registered with it.
"""

from __future__ import annotations

from discord.ext import commands

from bot.games.pickomino.history import PICKOMINO_HISTORY
from bot.history import ui as history_ui
from bot.ui import platform_of
from cogs.pickomino._cog import PickominoCog
from cogs.pickomino._results import record_result


async def setup(bot: commands.Bot) -> None:
    platform = platform_of(bot)
    platform.sessions.game_over_hooks[PickominoCog.game.kind] = record_result
    bot.add_dynamic_items(*history_ui.DYNAMIC_ITEMS)
    cog = PickominoCog(platform.sessions, platform.live)
    assert cog.app_command is not None  # a GroupCog always has its group
    cog.app_command.add_command(history_ui.score_group(PICKOMINO_HISTORY))
    await bot.add_cog(cog)


async def teardown(bot: commands.Bot) -> None:
    platform_of(bot).sessions.game_over_hooks.pop(PickominoCog.game.kind, None)
    bot.remove_dynamic_items(*history_ui.DYNAMIC_ITEMS)
