"""The /pickomino command group: start, status, leave, end, rules (and score, attached)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.pickomino.adapter import KIND
from bot.games.pickomino.render import end_confirm_layout
from bot.games.pickomino.render.embeds import COLOUR
from bot.games.pickomino.render.text import options_lines
from bot.i18n import t
from bot.sessions import lobby, play
from bot.sessions.errors import AlreadyLive, NoSession, NotHost, SessionError
from bot.sessions.model import Session, Status
from bot.sessions.service import Change, SessionService
from bot.sessions.tools import ChangeTools
from cogs.pickomino._buttons import view_for
from cogs.pickomino._clicks import is_moderator, seat_for
from cogs.pickomino._live import LiveMessages, jump_url, reply_new
from cogs.pickomino._options import (
    DEFAULT_TIMER_SECONDS,
    FIRST_PLAYER_CHOICES,
    LOWER_TILE_CHOICES,
    TIMER_CHOICES,
    rules_from_choices,
    timer_from_choice,
)
from cogs.pickomino._replies import fail, refuse, tell

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


@app_commands.guild_only()
class PickominoCog(
    commands.GroupCog,
    name="Pickomino",
    group_name="pickomino",
    group_description=t("command.group"),
):
    def __init__(self, sessions: SessionService, live: LiveMessages) -> None:
        self.sessions = sessions
        self.live = live
        super().__init__()

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, SessionError):
            await refuse(interaction, original)
        else:
            await fail(interaction, original)

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
        assert interaction.guild_id is not None and interaction.channel_id is not None
        rules = rules_from_choices(lower_tile, flip_on_empty_failure, first_player)
        host = seat_for(interaction)
        session = Session(
            kind=KIND,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=host.user_id,
            seats=[host],
            options=rules.to_dict(),
            timer_seconds=timer_from_choice(turn_timer),
            hints=hints is not False,
        )
        try:
            await self.sessions.open(session, post=lambda new: reply_new(interaction, new))
        except AlreadyLive as error:
            existing: Session = error.params["session"]
            await tell(interaction, t("error.already_live", link=jump_url(existing)))

    @app_commands.command(name="status", description=t("command.status"))
    async def status(self, interaction: Interaction) -> None:
        assert interaction.channel_id is not None
        session, previous = await self.sessions.repost(
            interaction.channel_id, lambda live: reply_new(interaction, live)
        )
        await self.live.freeze(session, previous)

    @app_commands.command(name="leave", description=t("command.leave"))
    async def leave(self, interaction: Interaction) -> None:
        assert interaction.channel_id is not None
        user_id = interaction.user.id

        def leave(session: Session, tools: ChangeTools) -> list[Any]:
            if session.status is Status.LOBBY:
                return lobby.leave(session, tools, user_id)
            return play.leave(session, tools, user_id)

        change = await self.sessions.update(
            interaction.channel_id, leave, publish=self._show_on_live
        )
        was_lobby = change.before is not None and change.before.status is Status.LOBBY
        await tell(interaction, t("leave.lobby.done" if was_lobby else "leave.done"))

    @app_commands.command(name="end", description=t("command.end"))
    async def end(self, interaction: Interaction) -> None:
        assert interaction.channel_id is not None
        session = await self.sessions.live(interaction.channel_id)
        if session is None:
            raise NoSession()
        if interaction.user.id != session.host_id and not is_moderator(interaction):
            raise NotHost(name=session.host_name)
        view = view_for(end_confirm_layout(session))
        await tell(interaction, t("end.confirm"), view=view or discord.utils.MISSING)

    @app_commands.command(name="rules", description=t("command.rules"))
    async def rules(self, interaction: Interaction) -> None:
        assert interaction.channel_id is not None
        session = await self.sessions.live(interaction.channel_id)
        embed = discord.Embed(title=t("rules.title"), description=t("rules.summary"), colour=COLOUR)
        if session is not None:
            lines = options_lines(session.options, session.timer_seconds, session.hints)
            embed.add_field(name=t("rules.options"), value="\n".join(lines), inline=False)
        else:
            lines = options_lines({}, DEFAULT_TIMER_SECONDS)
            embed.add_field(name=t("rules.options.default"), value="\n".join(lines), inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _show_on_live(self, change: Change) -> None:
        await self.live.edit(change.session)
