"""The /pickomino extension: the command group, with its score subgroup and history.

The shared machinery (the session component, clicks, live messages) is installed by
the platform (bot/ui/__init__.py) before any game's extension loads.
"""

from __future__ import annotations

from discord.ext import commands

from bot.games.pickomino.history import PICKOMINO_HISTORY
from bot.ui.extension import add_game, remove_game
from cogs.pickomino._cog import PickominoCog


async def setup(bot: commands.Bot) -> None:
    await add_game(bot, PickominoCog, PICKOMINO_HISTORY)


async def teardown(bot: commands.Bot) -> None:
    await remove_game(bot, PickominoCog)
