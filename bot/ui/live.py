"""The live message: shown as an interaction reply or edited in place, one per channel.

Also the session listener: changes nobody clicked for (the turn timer, a computer
player's step) edit the live message through the freshest interaction token, else
through the channel where the bot's token works there, and the turn pings and the
half-time reminder (bot.ui.pings) follow each change.

Where only interactions reach the channel (a group DM, a server without the bot), a
message nobody clicks on can be edited for 15 minutes after the last click. Before its
token runs out, a game that goes on by itself (a computer player's turn, a turn timer)
or at the table shows what happens next and a Continue button; any click shows every
committed change.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any, TypeVar

import discord

from bot.i18n import with_locale
from bot.plugin import Games
from bot.plugin.session_message import render_frozen, render_session, render_waiting
from bot.process.background import BackgroundTasks
from bot.process.worker_threads import PICTURES, run_in
from bot.render.layout import Rendered
from bot.sessions.errors import MessageUnreachable
from bot.sessions.model import Session, Status
from bot.sessions.service import Change, SessionService
from bot.ui.callback import update_message
from bot.ui.click_tokens import InteractionTokens
from bot.ui.components import message_view, prebuilt_message
from bot.ui.paused_channels import ChannelPaused, PausedChannels
from bot.ui.pings import TurnPings

log = logging.getLogger(__name__)
T = TypeVar("T")


class NoFreshToken(MessageUnreachable):
    """The live message is where only interactions reach, and none is fresh: it waits
    for the next click (which shows every change since)."""


def goes_on_alone(session: Session, games: Games) -> bool:
    """Whether the game can change with nobody clicking: a computer plays the turn, or a
    turn timer runs."""
    if session.status is not Status.PLAYING or session.game is None:
        return False
    seat = session.seat_to_move(games.plugin(session.kind).adapter)
    return (seat is not None and seat.computer_plays) or session.deadline is not None


def changes_unseen(session: Session, games: Games) -> bool:
    """Whether the game can change with nobody clicking in the chat: it goes on alone,
    or it is played at the table too."""
    if session.at_table and session.status is not Status.OVER:
        return True
    return goes_on_alone(session, games)


def attachments(message: Rendered) -> list[discord.File]:
    return [
        discord.File(io.BytesIO(picture.data), filename=picture.filename)
        for picture in message.pictures
    ]


def is_emoji_refusal(error: discord.HTTPException) -> bool:
    """Discord's answer to a component emoji the application may not use: 400, Invalid
    Form Body (50035), an error at the emoji (discord.py flattens the errors into text)."""
    return error.status == 400 and error.code == 50035 and "emoji" in error.text.lower()


class LiveMessages:
    """Shows live messages: as the answer to a command or click, and through the channel
    for updates that are not an answer to a click."""

    def __init__(
        self,
        client: discord.Client,
        games: Games,
        sessions: SessionService,
        pings: TurnPings | None = None,
        *,
        emojis_refused: Callable[[], None] = lambda: None,
        paused: PausedChannels | None = None,
        tokens: InteractionTokens | None = None,
    ) -> None:
        self.client = client
        self.games = games
        self.sessions = sessions
        self.pings = pings
        # The pings' own when none is given: pings go out as follow-ups of these tokens.
        self.tokens = tokens or (pings.tokens if pings is not None else InteractionTokens())
        self._continues: dict[int, asyncio.TimerHandle] = {}  # channel -> its Continue edit
        self._continuing = BackgroundTasks()
        self.emojis_refused = emojis_refused  # the client falls back to Unicode and re-syncs
        # Where a 403 stopped the bot's token work: the pings' own set when none is given,
        # so a 403 to a ping pauses the channel's edits too, however the two were built.
        self.paused = paused or (pings.paused if pings is not None else PausedChannels())
        self._pinging = BackgroundTasks()
        # The table is on (DISCORD_CLIENT_SECRET): lobbies and games in play offer Open
        # the table.
        self.table = False

    async def rendered(self, session: Session, *, waiting: bool = False) -> Rendered:
        """The live message, in the game's language whoever clicked (ephemeral answers are
        in the clicker's own); an ended game's is told from all its stored events, and its
        picture drawn off the event loop (which carries the language along). `waiting`:
        its last edit before the token runs out, with what happens next and Continue."""
        game = self.games.plugin(session.kind)
        with with_locale(session.language):
            if waiting and changes_unseen(session, self.games):
                return render_waiting(session, game, table=self.table)
            if session.status is not Status.OVER or session.game is None or session.id is None:
                return render_session(session, game, table=self.table)
            events = await self.sessions.ended_events(session.id)
            return await run_in(PICTURES, render_session, session, game, events)

    async def _emoji_safe(self, send: Callable[[], Awaitable[T]]) -> T:
        """`send()`, and if Discord refuses one of the application's emojis in it (deleted
        in the portal, or another application's), the emojis fall back to Unicode and it is
        sent again at once: the game goes on while the set is synced again."""
        try:
            return await send()
        except discord.HTTPException as error:
            if not is_emoji_refusal(error):
                raise
            log.warning("Discord refused an emoji (%s); showing Unicode, syncing again", error)
            self.emojis_refused()
            return await send()

    async def reply_new(
        self, interaction: discord.Interaction[Any], session: Session
    ) -> int | None:
        """Answer with the live message as a new message; return its id."""
        return await self._emoji_safe(lambda: self._reply_new(interaction, session))

    async def _reply_new(
        self, interaction: discord.Interaction[Any], session: Session
    ) -> int | None:
        message = await self.rendered(session)
        callback = await interaction.response.send_message(
            view=message_view(message), files=attachments(message) or discord.utils.MISSING
        )
        message_id = callback.message_id if callback is not None else None
        self._answered(session, interaction, message_id)  # its token edits the new message
        return message_id

    async def reply_edit(self, interaction: discord.Interaction[Any], session: Session) -> None:
        """Answer a click by editing the message it was made on (no message-edit rate
        limit), or, if the click was acknowledged already (deferred while earlier changes
        were shown), by editing it through the interaction's webhook. A message of an
        older release (an embed) becomes Components V2: its text goes."""
        await self._emoji_safe(lambda: self._reply_edit(interaction, session))

    async def _reply_edit(self, interaction: discord.Interaction[Any], session: Session) -> None:
        message = await self.rendered(session)
        components = prebuilt_message(message)
        if interaction.response.is_done():
            await interaction.edit_original_response(
                content=None, embeds=[], view=components, attachments=attachments(message)
            )
        elif message.pictures or not await update_message(interaction, components.to_components()):
            await interaction.response.edit_message(
                content=None, embeds=[], view=components, attachments=attachments(message)
            )
        clicked = interaction.message
        on_live = clicked is not None and clicked.id == session.message_id
        self._answered(session, interaction, session.message_id if on_live else None)

    def _answered(
        self, session: Session, interaction: discord.Interaction[Any], message_id: int | None
    ) -> None:
        """The interaction was answered: its token edits `message_id` (the live message,
        if it is that) and sends follow-ups; where nothing else reaches the channel, the
        message's Continue state is due before the token runs out."""
        self.tokens.remember(session.channel_id, interaction, message_id)
        if message_id is None or session.place.bot_token_works:
            return
        expires = self.tokens.expires(session.channel_id, message_id)
        if expires is None:
            return
        old = self._continues.pop(session.channel_id, None)
        if old is not None:
            old.cancel()
        # Shown a margin before the token stops being used, through that token.
        delay = max(0.0, expires - self.tokens.margin - self.tokens.now() + 0.01)
        handle = asyncio.get_running_loop().call_later(
            delay, self._continue_due, session.channel_id
        )
        self._continues[session.channel_id] = handle

    def _continue_due(self, channel_id: int) -> None:
        self._continues.pop(channel_id, None)
        self._continuing.start(self.show_waiting(channel_id), "continue-state")

    async def show_waiting(self, channel_id: int) -> None:
        """Edit the live message into its Continue state, if its game goes on without
        clicks in the chat."""
        session = self.sessions.in_memory(channel_id)
        if session is None or not changes_unseen(session, self.games):
            return
        try:
            await self.sessions.show(
                channel_id, lambda change: self.edit(change.session, waiting=True)
            )
        except Exception as error:  # the game ended or moved meanwhile: nothing to show
            log.info("no Continue state in channel %s: %r", channel_id, error)

    async def post_new(self, session: Session) -> int | None:
        """Show a session opened away from the chat (at the table) as a new live message
        in its channel, with the bot's token; its id. None where that token may not post
        (only interactions reach the channel) or Discord refused: the table shows the
        session all the same, and /<game> status posts it later."""
        if not session.place.bot_token_works:
            return None
        message = await self.rendered(session)
        channel = self.client.get_partial_messageable(session.channel_id)
        sent: list[discord.Message] = []

        async def send() -> None:
            files = attachments(message) or discord.utils.MISSING
            sent.append(await channel.send(view=message_view(message), files=files))

        try:
            await self._emoji_safe(lambda: self._through_channel(session.channel_id, send))
        except (discord.HTTPException, discord.RateLimited, MessageUnreachable) as error:
            log.info("could not post session %s in its channel: %r", session.id, error)
            return None
        return sent[-1].id if sent else None

    def _message(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        return self.client.get_partial_messageable(channel_id).get_partial_message(message_id)

    async def edit(self, session: Session, *, waiting: bool = False) -> None:
        """Show the session in its live message, for a change nobody clicked for (a
        computer player's step, the timer) or one answered elsewhere. Through the webhook
        of the last click on that message while its token lasts: those requests do not
        count against the bot's global rate limit, which every shard shares; else
        through the channel, with the bot's token."""
        if session.message_id is None:
            return
        await self._emoji_safe(lambda: self._edit(session, waiting))

    async def _edit(self, session: Session, waiting: bool) -> None:
        assert session.message_id is not None
        clicked = self.tokens.usable(session.channel_id, session.message_id)
        # The token's last edits show the Continue state, where no other edit can follow.
        waiting = waiting or (
            not session.place.bot_token_works
            and self.tokens.ending(session.channel_id, session.message_id)
        )
        message = await self.rendered(session, waiting=waiting)
        fields: dict[str, Any] = {
            "content": None,
            "embeds": [],
            "view": prebuilt_message(message),
            "attachments": attachments(message),
        }
        if clicked is not None:
            try:
                await clicked.edit_original_response(**fields)
                return
            except discord.HTTPException as error:
                if is_emoji_refusal(error):
                    raise  # not the token's fault
                # Expired early, or the message changed hands: the bot's token then.
                log.info("edit through the click in %s failed: %s", session.channel_id, error)
                self.tokens.forget(session.channel_id, session.message_id)
                fields["attachments"] = attachments(message)  # the files were read
        if not session.place.bot_token_works:
            raise NoFreshToken(session.channel_id)  # no bot-token request: it would be refused
        live_message = self._message(session.channel_id, session.message_id)
        await self._through_channel(session.channel_id, lambda: live_message.edit(**fields))

    async def _through_channel(
        self, channel_id: int, request: Callable[[], Awaitable[Any]]
    ) -> None:
        """A request with the bot's token in the channel, unless the channel is paused;
        a 403 pauses it. Either way ChannelPaused: the message is behind until resumed."""
        if channel_id in self.paused:
            raise ChannelPaused(channel_id)
        try:
            await request()
        except discord.Forbidden as error:
            self.paused.pause(channel_id, error)
            raise ChannelPaused(channel_id) from error

    async def resume(self, session: Session | None, channel_id: int) -> None:
        """The bot has its permissions in the channel again (a click said so): its token
        work goes on, starting with the live message and the ping of the turn."""
        if not self.paused.resume(channel_id):
            return
        if session is not None and session.channel_id == channel_id:
            self.sessions.shown.not_shown(session)
            await self.sessions.repair()
            await self.turn_changed(Change(session, session, []))

    async def freeze(self, session: Session, message_id: int | None) -> None:
        """Take the buttons off an older copy, so only the live message has any."""
        if message_id is None or message_id == session.message_id:
            return
        try:
            with with_locale(session.language):
                frozen = render_frozen(session, self.games.plugin(session.kind))
            fields: dict[str, Any] = {
                "content": None,
                "embeds": [],
                "view": message_view(frozen),
                "attachments": [],
            }
            clicked = self.tokens.usable(session.channel_id, message_id)
            if clicked is not None:
                await clicked.edit_original_response(**fields)
                return
            if not session.place.bot_token_works:
                raise NoFreshToken(session.channel_id)
            old_copy = self._message(session.channel_id, message_id)
            await self._through_channel(session.channel_id, lambda: old_copy.edit(**fields))
        except (discord.HTTPException, discord.RateLimited, MessageUnreachable) as error:
            # Deleted, too old to edit, or the bot may not touch the channel now (a 403
            # pauses it): its buttons are refused as stale anyway.
            log.info("could not freeze message %s: %s", message_id, error)

    async def strip_buttons(self, session: Session) -> None:
        """Remove the buttons of an ended game's message (after Play again). Its text is
        in its components too (Components V2), so it is drawn again without them."""
        if session.message_id is None:
            return
        message = replace(await self.rendered(session), layout=[])
        fields: dict[str, Any] = {
            "view": prebuilt_message(message),
            "attachments": attachments(message),
        }
        try:
            clicked = self.tokens.usable(session.channel_id, session.message_id)
            if clicked is not None:
                await clicked.edit_original_response(**fields)
            elif session.place.bot_token_works:
                await self._message(session.channel_id, session.message_id).edit(**fields)
            else:  # only interactions reach it: its buttons are refused as stale anyway
                log.info("buttons of %s left: no token reaches it", session.message_id)
        except (discord.HTTPException, discord.RateLimited) as error:
            log.info("could not strip buttons of %s: %s", session.message_id, error)

    # ----------------------------------------------------------- SessionListener

    async def session_changed(self, change: Change) -> None:
        await self.edit(change.session)
        await self.turn_changed(change)

    async def turn_changed(self, change: Change) -> None:
        """After any change is shown: ping the person whose turn started (bot.ui.pings),
        in a task of its own. The pings of a channel follow each other in order (their
        lock), and no change waits for them: a ping slowed by a rate limit never holds
        up a game."""
        if self.pings is not None:
            self._in_background(self.pings.after(change), "turn-ping")

    async def pings_done(self) -> None:
        """Until every ping started is sent or deleted (at shutdown, and in tests)."""
        await self._pinging.wait()

    async def turn_reminder(self, session: Session, user_id: int) -> None:
        """Half of the turn's time is gone: the reminder (bot.ui.pings) replaces the turn's
        ping, in a task of its own like the pings, so it never holds up the game."""
        if self.pings is not None:
            self._in_background(self.pings.remind(session), "turn-reminder")

    def _in_background(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run a ping's `work` in a task of its own, kept until done (pings_done waits)."""
        self._pinging.start(work, name)
