"""The /picker command group: start (with Picker's options) and rules; status, leave
and end come from the shared GameCog."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games.picker.plugin import PICKER
from bot.games.picker.words import options_lines
from bot.i18n import t
from bot.ui.game_cog import GameCog
from bot.ui.options import (
    FIRST_PLAYER_CHOICES,
    TIMER_CHOICES,
    timer_from_choice,
)

Interaction = discord.Interaction[Any]


@app_commands.guild_only()
class PickerCog(
    GameCog,
    name="Picker",
    group_name="picker",
    group_description=t("picker.command.group"),
):
    game = PICKER

    @app_commands.command(name="start", description=t("picker.command.start"))
    @app_commands.describe(
        first_player=t("command.start.first_player"),
        turn_timer=t("command.start.turn_timer"),
        hints=t("command.start.hints"),
    )
    @app_commands.choices(first_player=FIRST_PLAYER_CHOICES)
    @app_commands.choices(turn_timer=TIMER_CHOICES)
    async def start(
        self,
        interaction: Interaction,
        first_player: str | None = None,
        turn_timer: int | None = None,
        hints: bool | None = None,
    ) -> None:
        await self.open_lobby(
            interaction,
            options={"first_player": first_player or "random"},
            timer_seconds=timer_from_choice(turn_timer),
            hints=hints is not False,
        )

    @app_commands.command(name="rules", description=t("picker.command.rules"))
    async def rules(self, interaction: Interaction) -> None:
        title, summary = t("picker.rules.title"), t("picker.rules.summary")
        await self.answer_rules(interaction, title, summary, options_lines)
