"""What every game's command group shares: /<game> status, leave and end, the error
funnel, and opening a lobby for /<game> start. A game's GroupCog subclasses GameCog,
names its group, and adds its own `start` (with the game's options) and `rules`."""

from __future__ import annotations

import logging
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.plugin import GamePlugin
from bot.games.registry import plugin
from bot.i18n import supported, t
from bot.render.lobby import end_confirm_layout
from bot.sessions import lobby, play
from bot.sessions.errors import NoSession, NotHost
from bot.sessions.model import Seat, Session, Status
from bot.sessions.service import Change, SessionService
from bot.sessions.tools import ChangeTools
from bot.ui.clicks import is_moderator, open_lobby, seat_for
from bot.ui.components import view_for
from bot.ui.live import LiveMessages, reply_new
from bot.ui.replies import answer_error, tell
from bot.ui.translator import command_text

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


class GameCog(commands.GroupCog):
    """Base of a game's /<game> group. Subclasses set `game` (their GamePlugin)."""

    game: ClassVar[GamePlugin]

    def __init__(self, sessions: SessionService, live: LiveMessages) -> None:
        self.sessions = sessions
        self.live = live
        super().__init__()

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, NoSession):
            original = NoSession(game=self.game.title, start=self.game.start_command)
        await answer_error(interaction, original)

    async def open_lobby(
        self,
        interaction: Interaction,
        *,
        options: dict[str, Any],
        timer_seconds: int | None,
        hints: bool,
        language: str | None,
    ) -> None:
        """/<game> start: a lobby hosted by the caller, or a link to the channel's game.
        The game speaks `language` if given, else the host's client language."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise app_commands.NoPrivateMessage()
        host: Seat = seat_for(interaction)
        session = Session(
            kind=self.game.kind,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=host.user_id,
            seats=[host],
            options=options,
            timer_seconds=timer_seconds,
            hints=hints,
            language=supported(language or interaction.locale.value),
        )
        await open_lobby(self.sessions, interaction, session)

    @app_commands.command(
        name=command_text("command.name.status"), description=command_text("command.status")
    )
    async def status(self, interaction: Interaction) -> None:
        channel_id = self._channel(interaction)
        session, previous = await self.sessions.repost(
            channel_id, lambda live: reply_new(interaction, live)
        )
        await self.live.freeze(session, previous)

    @app_commands.command(
        name=command_text("command.name.leave"), description=command_text("command.leave")
    )
    async def leave(self, interaction: Interaction) -> None:
        channel_id = self._channel(interaction)
        user_id = interaction.user.id

        def leave_table(session: Session, tools: ChangeTools) -> list[Any]:
            if session.status is Status.LOBBY:
                return lobby.leave(session, tools, user_id)
            return play.leave(session, tools, user_id)

        change = await self.sessions.update(channel_id, leave_table, publish=self._show_on_live)
        was_lobby = change.before is not None and change.before.status is Status.LOBBY
        await tell(interaction, t("leave.lobby.done" if was_lobby else "leave.done"))

    @app_commands.command(
        name=command_text("command.name.end"), description=command_text("command.end")
    )
    async def end(self, interaction: Interaction) -> None:
        session = await self.sessions.live(self._channel(interaction))
        if session is None:
            raise NoSession()
        if interaction.user.id != session.host_id and not is_moderator(interaction):
            raise NotHost(name=session.host_name)
        view = view_for(end_confirm_layout(session))
        text = t("end.confirm", game=plugin(session.kind).title)
        await tell(interaction, text, view=view or discord.utils.MISSING)

    async def _show_on_live(self, change: Change) -> None:
        await self.live.edit(change.session)

    @staticmethod
    def _channel(interaction: Interaction) -> int:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise app_commands.NoPrivateMessage()
        return interaction.channel_id
