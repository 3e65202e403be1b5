"""The /picker command group: start (with Picker's options) and rules; status, leave
and end come from the shared GameCog."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games.picker.words import options_lines
from bot.i18n import t
from bot.ui.game_cog import GameCog
from bot.ui.options import shared_start_options
from bot.ui.translator import command_text

Interaction = discord.Interaction[Any]


class PickerCog(
    GameCog,
    name="Picker",
    group_name="picker",
    group_description=command_text("picker.command.group"),
):
    @app_commands.command(
        name=command_text("command.name.start"), description=command_text("picker.command.start")
    )
    @shared_start_options
    async def start(
        self,
        interaction: Interaction,
        first_player: str | None = None,
        turn_timer: int | None = None,
        hints: bool | None = None,
        language: str | None = None,
    ) -> None:
        await self.open_lobby(
            interaction,
            options={"first_player": first_player or "random"},
            turn_timer=turn_timer,
            hints=hints,
            language=language,
        )

    @app_commands.command(
        name=command_text("command.name.rules"), description=command_text("picker.command.rules")
    )
    async def rules(self, interaction: Interaction) -> None:
        title, summary = t("picker.rules.title"), t("picker.rules.summary")
        await self.answer_rules(interaction, title, summary, options_lines)
