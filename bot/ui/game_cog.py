"""What every game's command group shares: /<game> status, leave, end and notify, learn
(for a game with a tutorial), the error funnel, and opening a lobby for /<game> start.
A game's GroupCog subclasses GameCog, names its group, and adds its own `start` (with
the game's options) and `rules`; the client builds it with the platform and the game's
plugin."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import supported, t
from bot.plugin import GamePlugin
from bot.render.layout import add_line_fields
from bot.render.lobby import end_confirm_layout
from bot.sessions import actions, lobby
from bot.sessions.errors import NoSession
from bot.sessions.model import Place, Seat, Session, Status
from bot.sessions.service import Change
from bot.ui.clicks import actor_of, is_moderator, open_lobby, seat_for
from bot.ui.components import view_for
from bot.ui.computer_players import solo_level
from bot.ui.options import DEFAULT_TIMER_SECONDS, timer_from_choice
from bot.ui.places import guild_id_of, place_of
from bot.ui.platform import Platform
from bot.ui.practice import open_practice
from bot.ui.replies import answer_error, tell
from bot.ui.translator import command_text

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
OptionLines = Callable[[dict[str, Any], int | None, bool], list[str]]


# Every game's commands work wherever a person can use the app: in servers that added the
# bot, and, installed to a person's account, in any server, DM and group DM of theirs.
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class GameCog(commands.GroupCog):
    """Base of a game's /<game> group, built with the platform and the game's plugin."""

    def __init__(self, platform: Platform, game: GamePlugin) -> None:
        self.platform = platform
        self.game = game
        self.sessions = platform.sessions
        self.live = platform.live
        super().__init__()
        if game.tutorial is None:
            # /<game> learn is offered by the games that teach, and by no other.
            group = self.app_command
            assert group is not None  # a GroupCog always has its group
            group.remove_command(self.learn.name)

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
        turn_timer: int | None,
        hints: bool | None,
        language: str | None,
    ) -> None:
        """/<game> start: a lobby hosted by the caller, or a link to the channel's game.
        `turn_timer`, `hints` and `language` as the shared options gave them (None: not
        given): the timer's default, hints on, and the host's client language. Where the
        bot lacks a permission a game needs in the channel, the caller is told which, and
        nothing is opened (bot.ui.permissions)."""
        if interaction.channel_id is None:
            raise app_commands.NoPrivateMessage()
        host: Seat = seat_for(interaction)
        place = place_of(interaction)
        session = Session(
            kind=self.game.kind,
            guild_id=guild_id_of(interaction),
            channel_id=interaction.channel_id,
            host_id=host.user_id,
            seats=[host],
            options=options,
            timer_seconds=timer_from_choice(turn_timer),
            hints=hints is not False,
            language=supported(language or interaction.locale.value),
            place=place,
        )
        if place is Place.BOT_DM:
            # Nobody else can join the bot's DM: the lobby opens with a computer player
            # seated (more can be added, or it can be dropped, before Start).
            session.seats.append(
                lobby.bot_seat(session, self.game.adapter, solo_level(self.game.adapter))
            )
        await open_lobby(self.live, interaction, session)

    @app_commands.command(
        name=command_text("command.name.learn"), description=command_text("command.learn")
    )
    async def learn(self, interaction: Interaction) -> None:
        """A short practice game against the computer that teaches the rules as it goes."""
        await open_practice(self.live, interaction, self.game)

    @app_commands.command(
        name=command_text("command.name.status"), description=command_text("command.status")
    )
    async def status(self, interaction: Interaction) -> None:
        channel_id = self._channel(interaction)
        session, previous = await self.sessions.repost(
            channel_id, lambda live: self.live.reply_new(interaction, live)
        )
        # The new copy is the interaction's answer, which needs no permission; the rest
        # of the game needs the bot's own (bot.ui.permissions): say so, or resume.
        await self.platform.clicks.after_answer(interaction)
        await self.live.freeze(session, previous)

    @app_commands.command(
        name=command_text("command.name.leave"), description=command_text("command.leave")
    )
    async def leave(self, interaction: Interaction) -> None:
        channel_id = self._channel(interaction)
        leave_table = actions.leave(actor_of(interaction))
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
        lobby.check_may_close(session, interaction.user.id, moderator=is_moderator(interaction))
        view = view_for(end_confirm_layout(session))
        text = t("end.confirm", game=self.platform.games.plugin(session.kind).title)
        await tell(interaction, text, view=view or discord.utils.MISSING)

    @app_commands.command(
        name=command_text("command.name.notify"), description=command_text("command.notify")
    )
    @app_commands.rename(turn_pings=command_text("command.option.turn_pings"))
    @app_commands.describe(turn_pings=command_text("command.notify.turn_pings"))
    async def notify(self, interaction: Interaction, turn_pings: bool) -> None:
        """A person's own setting, for every game and channel: whether their turns start
        with a ping."""
        await self.platform.notify.set_turn_pings(interaction.user.id, turn_pings)
        text = t("notify.on") if turn_pings else t("notify.off", command=self.game.command)
        await interaction.response.send_message(text, ephemeral=True)

    async def answer_rules(
        self,
        interaction: Interaction,
        title: str,
        summary: str,
        options_lines: OptionLines,
        sections: Sequence[tuple[str, list[str]]] = (),
    ) -> None:
        """/<game> rules: the game's summary, where to read more, its options (those in
        force in this channel, or a new game's) and the game's own `sections` (heading,
        lines), such as an expansion's rules in full."""
        session = await self.sessions.live(self._channel(interaction))
        url = self.platform.rules_url
        # Without a page of the rules (RULES_URL) this answer is the rules, in the
        # reader's language; it says where the other choices of each option are listed.
        start = self.game.start_command
        more = t("rules.more.link", url=url) if url else t("rules.more.options", start=start)
        colour = self.game.renderer.colour
        embed = discord.Embed(title=title, description=f"{summary}\n\n{more}", colour=colour)
        if session is not None and session.kind == self.game.kind:
            lines = options_lines(session.options, session.timer_seconds, session.hints)
            add_line_fields(embed, t("rules.options"), lines)
        else:
            lines = options_lines({}, DEFAULT_TIMER_SECONDS, True)
            heading = t(f"{self.game.kind}.rules.options.default", start=start)
            add_line_fields(embed, heading, lines)
        for name, section in sections:
            add_line_fields(embed, name, section)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _show_on_live(self, change: Change) -> None:
        await self.live.edit(change.session)
        await self.live.turn_changed(change)

    @staticmethod
    def _channel(interaction: Interaction) -> int:
        if interaction.channel_id is None:
            raise app_commands.NoPrivateMessage()
        return interaction.channel_id
