"""The /picker extension: the command group, with its score subgroup and its history
(kept apart from Pickomino's)."""

from __future__ import annotations

from discord.ext import commands

from bot.games.picker.history import PICKER_HISTORY
from bot.ui.extension import add_game, remove_game
from cogs.picker._cog import PickerCog


async def setup(bot: commands.Bot) -> None:
    await add_game(bot, PickerCog, PICKER_HISTORY)


async def teardown(bot: commands.Bot) -> None:
    await remove_game(bot, PickerCog)
