"""The /pickomino command group: start (with Pickomino's options) and rules; status,
leave and end come from the shared GameCog, score is attached in __init__."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games.pickomino.command_options import (
    LOWER_TILE_CHOICES,
    OPTION_DESCRIPTIONS,
    OPTION_NAMES,
    rules_from_choices,
)
from bot.games.pickomino.render.text import extrawurm_lines, options_lines
from bot.i18n import t
from bot.ui.game_cog import GameCog
from bot.ui.options import shared_start_options
from bot.ui.translator import command_text

Interaction = discord.Interaction[Any]


class PickominoCog(
    GameCog,
    name="Pickomino",
    group_name="pickomino",
    group_description=command_text("pickomino.command.group"),
):
    @app_commands.command(
        name=command_text("command.name.start"),
        description=command_text("pickomino.command.start"),
    )
    @shared_start_options
    @app_commands.rename(**OPTION_NAMES)
    @app_commands.describe(**OPTION_DESCRIPTIONS)
    @app_commands.choices(lower_tile=LOWER_TILE_CHOICES)
    async def start(
        self,
        interaction: Interaction,
        lower_tile: str | None = None,
        flip_on_empty_failure: bool | None = None,
        first_player: str | None = None,
        turn_timer: int | None = None,
        hints: bool | None = None,
        extrawurm: bool | None = None,
        language: str | None = None,
    ) -> None:
        rules = rules_from_choices(lower_tile, flip_on_empty_failure, first_player, extrawurm)
        await self.open_lobby(
            interaction,
            options=rules.to_dict(),
            turn_timer=turn_timer,
            hints=hints,
            language=language,
        )

    @app_commands.command(
        name=command_text("command.name.rules"), description=command_text("command.rules")
    )
    async def rules(self, interaction: Interaction) -> None:
        title, summary = t("pickomino.rules.title"), t("pickomino.rules.summary")
        # Extrawurm in full, whether or not this channel plays it: the lobby's short line
        # sends players here for it.
        option = t("pickomino.command.option.extrawurm")
        heading = t("pickomino.rules.extrawurm", start=self.game.start_command, option=option)
        sections = [(heading, extrawurm_lines())]
        await self.answer_rules(interaction, title, summary, options_lines, sections)
