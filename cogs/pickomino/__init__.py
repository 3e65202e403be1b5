"""The /pickomino extension: the command group, its buttons, and the score subgroup.

`cogs/pickomino/_score.py` (history) provides `ScoreGroup`, an `app_commands.Group`
named "score" built with no arguments; it is attached under /pickomino when present,
and its `DYNAMIC_ITEMS` (the history pager's buttons) are registered with the game's.
Its commands reach storage through `interaction.client.db` and names through
`await interaction.client.display_name(guild_id, user_id)`.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from discord import app_commands
from discord.ext import commands
from discord.ui import DynamicItem

from cogs.pickomino._buttons import CLICK_HANDLER, SessionButton
from cogs.pickomino._clicks import Clicks
from cogs.pickomino._cog import PickominoCog
from cogs.pickomino._live import LiveMessages
from cogs.pickomino._results import record_result

log = logging.getLogger(__name__)

SCORE_MODULE = "cogs.pickomino._score"


async def setup(bot: commands.Bot) -> None:
    sessions = bot.sessions  # type: ignore[attr-defined]
    live = LiveMessages(bot)
    sessions.listener = live
    if record_result not in sessions.game_over_hooks:
        sessions.game_over_hooks.append(record_result)
    setattr(bot, CLICK_HANDLER, Clicks(sessions, live))
    score = load_score_module()
    # Registered by template: adding one again replaces it; teardown removes them.
    bot.add_dynamic_items(*dynamic_items(score))
    cog = PickominoCog(sessions, live)
    if score is not None and cog.app_command is not None:
        cog.app_command.add_command(score_group(score))
    await bot.add_cog(cog)


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*dynamic_items(load_score_module()))


def load_score_module() -> Any | None:
    """History's score module, if it is there yet."""
    try:
        return importlib.import_module(SCORE_MODULE)
    except ModuleNotFoundError as error:
        if error.name != SCORE_MODULE:
            raise
        log.info("no %s yet: /pickomino score is not available", SCORE_MODULE)
        return None


def dynamic_items(score: Any | None) -> list[type[DynamicItem[Any]]]:
    """The button classes that serve clicks from their custom_ids (the score pager's too)."""
    return [SessionButton, *getattr(score, "DYNAMIC_ITEMS", ())]


def score_group(score: Any) -> app_commands.Group:
    """The `score` subgroup of /pickomino."""
    group = score.ScoreGroup()
    assert isinstance(group, app_commands.Group) and group.name == "score"
    return group
