"""The /pickomino command group: start (with Pickomino's options) and rules; status,
leave and end come from the shared GameCog, score is attached in __init__."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games.pickomino.plugin import PICKOMINO
from bot.games.pickomino.render.embeds import COLOUR
from bot.games.pickomino.render.text import options_lines
from bot.i18n import t
from bot.storage.notify import NotifyStore
from bot.ui.game_cog import GameCog
from cogs.pickomino._options import (
    DEFAULT_TIMER_SECONDS,
    FIRST_PLAYER_CHOICES,
    LOWER_TILE_CHOICES,
    TIMER_CHOICES,
    rules_from_choices,
    timer_from_choice,
)

Interaction = discord.Interaction[Any]


@app_commands.guild_only()
class PickominoCog(
    GameCog,
    name="Pickomino",
    group_name="pickomino",
    group_description=t("command.group"),
):
    game = PICKOMINO

    @app_commands.command(name="start", description=t("command.start"))
    @app_commands.describe(
        lower_tile=t("command.start.lower_tile"),
        flip_on_empty_failure=t("command.start.flip"),
        first_player=t("command.start.first_player"),
        turn_timer=t("command.start.turn_timer"),
        hints=t("command.start.hints"),
    )
    # Text and number choices in two decorators: one call takes choices of one type.
    @app_commands.choices(lower_tile=LOWER_TILE_CHOICES, first_player=FIRST_PLAYER_CHOICES)
    @app_commands.choices(turn_timer=TIMER_CHOICES)
    async def start(
        self,
        interaction: Interaction,
        lower_tile: str | None = None,
        flip_on_empty_failure: bool | None = None,
        first_player: str | None = None,
        turn_timer: int | None = None,
        hints: bool | None = None,
    ) -> None:
        rules = rules_from_choices(lower_tile, flip_on_empty_failure, first_player)
        await self.open_lobby(
            interaction,
            options=rules.to_dict(),
            timer_seconds=timer_from_choice(turn_timer),
            hints=hints is not False,
        )

    @app_commands.command(name="rules", description=t("command.rules"))
    async def rules(self, interaction: Interaction) -> None:
        session = await self.sessions.live(self._channel(interaction))
        url = (
            getattr(interaction.client, "settings", None) and interaction.client.settings.rules_url
        )
        more = t("rules.more.link", url=url) if url else t("rules.more.file")
        embed = discord.Embed(
            title=t("rules.title"), description=f"{t('rules.summary')}\n\n{more}", colour=COLOUR
        )
        if session is not None and session.kind == self.game.kind:
            lines = options_lines(session.options, session.timer_seconds, session.hints)
            embed.add_field(name=t("rules.options"), value="\n".join(lines), inline=False)
        else:
            lines = options_lines({}, DEFAULT_TIMER_SECONDS)
            embed.add_field(name=t("rules.options.default"), value="\n".join(lines), inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="notify", description=t("command.notify"))
    @app_commands.describe(turn_pings=t("command.notify.turn_pings"))
    async def notify(self, interaction: Interaction, turn_pings: bool) -> None:
        """A person's own setting, for every channel: whether their turns start with a ping."""
        await NotifyStore(self.sessions.db).set_turn_pings(interaction.user.id, turn_pings)
        text = t("notify.on") if turn_pings else t("notify.off", command=self.game.command)
        await interaction.response.send_message(text, ephemeral=True)
