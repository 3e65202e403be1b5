"""The /picker extension: the command group (its history comes with the history work)."""

from __future__ import annotations

from discord.ext import commands

from bot.ui import platform_of
from cogs.picker._cog import PickerCog


async def setup(bot: commands.Bot) -> None:
    platform = platform_of(bot)
    await bot.add_cog(PickerCog(platform.sessions, platform.live))
