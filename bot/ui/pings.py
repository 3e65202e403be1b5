"""Turn pings: an edit never notifies anyone, so when a person's turn starts a short new
message mentions them (and only them); it is deleted when that turn ends, so the channel
does not fill up. None for computer players, none for people who turned them off
(/<game> notify). Each is in the language of the person it mentions (their seat's
locale, from their last interaction), not of whoever made the move. With a turn timer,
the half-time reminder takes the ping's place (the ping is deleted as it comes), and
goes the same way when the turn or the game ends.

Each ping is stored (bot.storage.pings) as well as kept in memory: after a restart the
ping of a turn still in progress is still deleted when that turn ends, and at start-up
(`restore`) the pings of turns that ended while the bot was down are deleted.

A ping is worth sending only now: where the channel's rate limit would hold it (or the
deletion of the ping before it), it is skipped, never queued behind the game. The
channel's next change then deletes what is left and pings whoever's turn it is then,
so the pings skipped merge into one, for the current turn."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging

import discord
from discord.http import Route

from bot.i18n import t, with_locale
from bot.plugin import Games
from bot.sessions.model import Session, Status
from bot.sessions.service import Change, SessionService
from bot.storage.notify import NotifyStore
from bot.storage.pings import PingStore, StoredPing
from bot.storage.protocols import StorageError
from bot.ui.paused_channels import PausedChannels
from bot.ui.rate_limits import delete_route, send_route, wait_before

log = logging.getLogger(__name__)


class TurnPings:
    """One ping at most per channel, for the turn in progress. The store is the record
    across restarts; memory holds each channel's ping once read or written, so a change
    in a channel reads the store only the first time after a start."""

    def __init__(
        self,
        client: discord.Client,
        games: Games,
        settings: NotifyStore,
        store: PingStore,
        paused: PausedChannels | None = None,
    ) -> None:
        self.client = client
        self.paused = paused or PausedChannels()
        self.games = games
        self.settings = settings
        self.store = store
        self._pings: dict[int, StoredPing | None] = {}  # channel id -> its ping, once known
        self._locks: dict[int, asyncio.Lock] = {}  # changes in a channel, one at a time

    def _lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    async def after(self, change: Change) -> None:
        """Delete the ping of a turn that ended; ping the person whose turn started."""
        channel_id = change.session.channel_id
        if channel_id in self.paused:
            return  # the bot may not post there now; its next change after resuming pings
        try:
            async with self._lock(channel_id):
                await self._follow(change.session)
        except discord.Forbidden as error:
            self.paused.pause(channel_id, error)
        except (discord.HTTPException, discord.RateLimited, StorageError) as error:
            log.info("turn ping in channel %s failed: %s", channel_id, error)

    async def remind(self, session: Session) -> None:
        """Half of the turn's time is gone: remind the person to move, in place of their
        ping (any mention of the turn before it is deleted)."""
        channel_id = session.channel_id
        if channel_id in self.paused:
            return
        try:
            async with self._lock(channel_id):
                await self._remind(session)
        except discord.Forbidden as error:
            self.paused.pause(channel_id, error)
        except (discord.HTTPException, discord.RateLimited, StorageError) as error:
            log.info("turn reminder in channel %s failed: %s", channel_id, error)

    async def restore(self, sessions: SessionService) -> int:
        """At start-up: delete the stored pings whose turn is over (it ended, or its game
        did, while the bot was down), pinging whoever's turn it is now; keep the others
        for their turn's end. Returns how many were deleted."""
        try:
            # Sharded: only the pings of this process's guilds.
            stored = [p for p in await self.store.all() if sessions.owns_guild(p.guild_id)]
        except StorageError as error:
            log.warning("could not read the stored turn pings: %s", error)
            return 0
        deleted = 0
        for ping in stored:
            try:
                async with self._lock(ping.channel_id):
                    if ping.channel_id in self._pings:
                        continue  # a change in the channel came first and dealt with it
                    self._pings[ping.channel_id] = ping
                    session = await sessions.live(ping.channel_id)
                    if session is None:  # the game is over, or gone
                        if not await self._drop(ping):
                            continue
                        self._pings[ping.channel_id] = None
                    elif self._turn_key(session) != ping.turn:
                        await self._follow(session)
                    else:
                        continue
                    deleted += 1
            except (discord.HTTPException, StorageError) as error:
                log.info("turn ping %s left from before: %s", ping.message_id, error)
        if deleted:
            log.info("deleted %d turn pings left from before the start", deleted)
        return deleted

    async def _follow(self, session: Session) -> None:
        turn = self._turn_key(session)
        if not await self._only_turn(session.channel_id, turn):
            return
        if self._pings[session.channel_id] is not None or turn is None:
            return  # the same turn goes on, pinged already
        seat = session.seat_to_move(self.games.plugin(session.kind).adapter)
        if seat is None or seat.is_bot or not await self.settings.turn_pings(seat.user_id):
            return
        if self._would_wait(send_route(session.channel_id)):
            return  # no ping on record: the channel's next change pings the player then
        with with_locale(seat.locale or session.language):  # the language of its reader
            game = self.games.plugin(session.kind).title
            text = t("turn.ping", mention=f"<@{seat.user_id}>", game=game)
        await self._post(session, turn, seat.user_id, text)

    async def _remind(self, session: Session) -> None:
        turn = self._turn_key(session)
        seat = session.seat_to_move(self.games.plugin(session.kind).adapter)
        if turn is None or seat is None or seat.computer_plays:
            return
        if not await self._only_turn(session.channel_id, turn):
            return
        ping = self._pings[session.channel_id]
        routes = [send_route(session.channel_id)]
        if ping is not None:
            routes.append(delete_route(session.channel_id, ping.message_id))
        if any(self._would_wait(route) for route in routes):
            return  # the ping, if any, stays for the turn
        if ping is not None and not await self._drop(ping):
            return
        self._pings[session.channel_id] = None
        deadline = session.deadline
        when = (
            discord.utils.format_dt(dt.datetime.fromtimestamp(deadline, dt.UTC), "R")
            if deadline is not None
            else ""
        )
        with with_locale(seat.locale or session.language):
            game = self.games.plugin(session.kind).title
            text = t("timer.reminder", mention=f"<@{seat.user_id}>", when=when, game=game)
        await self._post(session, turn, seat.user_id, text)

    async def _only_turn(self, channel_id: int, turn: str | None) -> bool:
        """Delete the channel's ping if its turn is over; False if one is left (its
        deletion would wait, or failed), to be deleted at the channel's next change."""
        if channel_id not in self._pings:
            self._pings[channel_id] = await self.store.get(channel_id)
        ping = self._pings[channel_id]
        if ping is None or ping.turn == turn:
            return True
        if self._would_wait(delete_route(channel_id, ping.message_id)):
            return False  # never a second ping beside a stale one
        if not await self._drop(ping):
            return False
        self._pings[channel_id] = None
        return True

    async def _post(self, session: Session, turn: str, user_id: int, text: str) -> None:
        """Send `text` mentioning `user_id` alone, as the channel's ping of `turn`."""
        channel = self.client.get_partial_messageable(session.channel_id)
        message = await channel.send(
            text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)])
        )
        ping = StoredPing(session.channel_id, session.guild_id, session.id or 0, turn, message.id)
        self._pings[session.channel_id] = ping
        await self.store.put(ping)

    async def _drop(self, ping: StoredPing) -> bool:
        """Delete the message, then its record (a crash between the two leaves a record
        whose message is gone: deleting it again at the next start is harmless). Whether
        it is gone."""
        try:
            channel = self.client.get_partial_messageable(ping.channel_id)
            await channel.get_partial_message(ping.message_id).delete()
        except (discord.NotFound, discord.Forbidden) as error:  # deleted by hand, or no right
            log.info("could not delete turn ping %s: %s", ping.message_id, error)
        except (discord.HTTPException, discord.RateLimited) as error:
            # Discord failing: keep the record, so the next change or start tries again.
            log.info("could not delete turn ping %s: %s", ping.message_id, error)
            return False
        await self.store.remove(ping.channel_id, ping.message_id)
        return True

    def _would_wait(self, route: Route) -> bool:
        wait = wait_before(self.client.http, route)
        if wait:
            log.info("turn ping skipped: %s would wait %.1f s (rate limit)", route.key, wait)
        return bool(wait)

    def _turn_key(self, session: Session) -> str | None:
        """Which turn is being played (None: no game in progress)."""
        if session.status is not Status.PLAYING or session.game is None:
            return None
        adapter = self.games.plugin(session.kind).adapter
        return f"{session.id}:{adapter.turn_key(session.game)}"
