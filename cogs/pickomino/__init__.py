"""The /pickomino extension: the command group, its buttons, and the score subgroup.

The score subgroup (`bot.history.ui.score_group`, for Pickomino's history figures) is
attached under /pickomino, and its pager buttons are registered with the game's. Its
commands reach storage through `interaction.client.db`.
"""

from __future__ import annotations

from typing import Any

from discord.ext import commands
from discord.ui import DynamicItem

from bot.games.pickomino.history import PICKOMINO_HISTORY
from bot.history import ui as history_ui
from cogs.pickomino._buttons import CLICK_HANDLER, SessionButton
from cogs.pickomino._clicks import Clicks
from cogs.pickomino._cog import PickominoCog
from cogs.pickomino._live import LiveMessages
from cogs.pickomino._results import record_result

# The button classes that serve clicks from their custom_ids alone, so they keep
# working after a restart. Registered by template: adding one again replaces it.
DYNAMIC_ITEMS: tuple[type[DynamicItem[Any]], ...] = (SessionButton, *history_ui.DYNAMIC_ITEMS)


async def setup(bot: commands.Bot) -> None:
    sessions = bot.sessions  # type: ignore[attr-defined]
    live = LiveMessages(bot)
    sessions.listener = live
    sessions.game_over_hooks.append(record_result)
    setattr(bot, CLICK_HANDLER, Clicks(sessions, live))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    cog = PickominoCog(sessions, live)
    assert cog.app_command is not None  # a GroupCog always has its group
    cog.app_command.add_command(history_ui.score_group(PICKOMINO_HISTORY))
    await bot.add_cog(cog)


async def teardown(bot: commands.Bot) -> None:
    # A reload imports this module afresh, so its record_result is a new function:
    # take this one out, or every reload would add another history hook.
    hooks = bot.sessions.game_over_hooks  # type: ignore[attr-defined]
    if record_result in hooks:
        hooks.remove(record_result)
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
