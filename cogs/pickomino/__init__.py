"""The /pickomino extension: the command group, its buttons, and the score subgroup.

`cogs/pickomino/_score.py` (history) provides `ScoreGroup`, an `app_commands.Group`
named "score" built with no arguments; it is attached under /pickomino when present.
Its commands reach storage through `interaction.client.db` and names through
`await interaction.client.display_name(guild_id, user_id)`.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from discord import app_commands
from discord.ext import commands

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
    bot.add_dynamic_items(SessionButton)
    cog = PickominoCog(sessions, live)
    score = load_score_group()
    if score is not None and cog.app_command is not None:
        cog.app_command.add_command(score)
    await bot.add_cog(cog)


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(SessionButton)


def load_score_group() -> app_commands.Group | None:
    """History's `score` subgroup, if that module is there yet."""
    try:
        module: Any = importlib.import_module(SCORE_MODULE)
    except ModuleNotFoundError as error:
        if error.name != SCORE_MODULE:
            raise
        log.info("no %s yet: /pickomino score is not available", SCORE_MODULE)
        return None
    group = module.ScoreGroup()
    assert isinstance(group, app_commands.Group) and group.name == "score"
    return group
