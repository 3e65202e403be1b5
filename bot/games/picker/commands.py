"""The /picker command group: start (with Picker's options) and rules; status, leave
and end come from the shared GameCog."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games.picker.words import options_lines
from bot.i18n import t
from bot.ui.game_cog import GameCog
from bot.ui.options import (
    FIRST_PLAYER_CHOICES,
    LANGUAGE_CHOICES,
    SHARED_OPTION_DESCRIPTIONS,
    SHARED_OPTION_NAMES,
    TIMER_CHOICES,
    timer_from_choice,
)
from bot.ui.translator import command_text

Interaction = discord.Interaction[Any]


@app_commands.guild_only()
class PickerCog(
    GameCog,
    name="Picker",
    group_name="picker",
    group_description=command_text("picker.command.group"),
):
    @app_commands.command(
        name=command_text("command.name.start"), description=command_text("picker.command.start")
    )
    @app_commands.rename(**SHARED_OPTION_NAMES)
    @app_commands.describe(**SHARED_OPTION_DESCRIPTIONS)
    @app_commands.choices(first_player=FIRST_PLAYER_CHOICES, language=LANGUAGE_CHOICES)
    @app_commands.choices(turn_timer=TIMER_CHOICES)
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
            timer_seconds=timer_from_choice(turn_timer),
            hints=hints is not False,
            language=language,
        )

    @app_commands.command(
        name=command_text("command.name.rules"), description=command_text("picker.command.rules")
    )
    async def rules(self, interaction: Interaction) -> None:
        title, summary = t("picker.rules.title"), t("picker.rules.summary")
        await self.answer_rules(interaction, title, summary, options_lines)
