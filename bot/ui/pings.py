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
deletion of the ping before it), it is skipped, never queued behind the game. Once the
limit has reset (or at the channel's next change, if that comes first) the channel is
looked at again as it is then: what is left is deleted and whoever's turn it is then
is pinged, so the pings skipped merge into one, for the current turn, and the last
ping of a game is deleted even if no change follows."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiohttp
import discord
from discord.http import Route

from bot.background import BackgroundTasks
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

# A ping or reminder that could not go: Discord refused it or rate-limited it, or the
# connection failed under it (aiohttp's errors, not discord.py's: the HTTP session closed
# at shutdown, the network dropped). Each runs in a task of its own, which nobody awaits
# for its result, so whatever is not caught there is lost as "never retrieved".
NOT_SENT = (discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError)

# A skipped ping's channel is looked at again this long after the limit's reset (the
# global limit's end is not known: then after the longest).
RETRY_MARGIN_SECONDS = 0.05
MAX_RETRY_SECONDS = 5.0


@dataclass(slots=True)
class _LookAgain:
    """A channel whose pings wait for a rate limit to reset: the timer, and the newest
    state of the channel seen meanwhile, which the look again follows."""

    handle: asyncio.TimerHandle
    latest: Session

    def note(self, session: Session) -> None:
        """Keep the newest state seen (changes may be looked at out of order: an older one
        must not take a newer one's place)."""
        if (session.id or 0, session.version) >= (self.latest.id or 0, self.latest.version):
            self.latest = session


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
        # Channels to look at again once a rate limit has reset, with their latest state.
        self._retries: dict[int, _LookAgain] = {}
        self._retrying = BackgroundTasks()

    def _lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    async def after(self, change: Change) -> None:
        """Delete the ping of a turn that ended; ping the person whose turn started."""
        channel_id = change.session.channel_id
        retry = self._retries.get(channel_id)
        if retry is not None:
            retry.note(change.session)  # what the look again will see
        # the bot may not post in a paused channel; its next change after resuming pings
        await self._in_channel(change.session, self._follow, "turn ping")

    async def remind(self, session: Session) -> None:
        """Half of the turn's time is gone: remind the person to move, in place of their
        ping (any mention of the turn before it is deleted)."""
        await self._in_channel(session, self._remind, "turn reminder")

    async def _in_channel(
        self, session: Session, work: Callable[[Session], Awaitable[None]], what: str
    ) -> None:
        """`work(session)` under the channel's lock, unless the channel is paused; a 403
        pauses it, and a message that could not go is logged, never raised."""
        channel_id = session.channel_id
        if channel_id in self.paused:
            return
        try:
            async with self._lock(channel_id):
                await work(session)
        except discord.Forbidden as error:
            self.paused.pause(channel_id, error)
        except (*NOT_SENT, StorageError) as error:
            log.info("%s in channel %s failed: %s", what, channel_id, error)

    def close(self) -> None:
        """At shutdown: no more looks again (a ping left is deleted at the next start)."""
        for retry in self._retries.values():
            retry.handle.cancel()
        self._retries.clear()
        self._retrying.cancel()

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
        if not await self._only_turn(session, turn):
            return
        if self._pings[session.channel_id] is not None or turn is None:
            return  # the same turn goes on, pinged already
        seat = session.seat_to_move(self.games.plugin(session.kind).adapter)
        if seat is None or seat.is_bot or not await self.settings.turn_pings(seat.user_id):
            return
        if self._would_wait(send_route(session.channel_id), session):
            return  # no ping on record: the look again pings whoever's turn it is then
        with with_locale(seat.locale or session.language):  # the language of its reader
            game = self.games.plugin(session.kind).title
            text = t("turn.ping", mention=f"<@{seat.user_id}>", game=game)
        await self._post(session, turn, seat.user_id, text)

    async def _remind(self, session: Session) -> None:
        turn = self._turn_key(session)
        seat = session.seat_to_move(self.games.plugin(session.kind).adapter)
        if turn is None or seat is None or seat.computer_plays:
            return
        if not await self._only_turn(session, turn):
            return
        ping = self._pings[session.channel_id]
        routes = [send_route(session.channel_id)]
        if ping is not None:
            routes.append(delete_route(session.channel_id, ping.message_id))
        if any(self._would_wait(route, session) for route in routes):
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

    async def _only_turn(self, session: Session, turn: str | None) -> bool:
        """Delete the channel's ping if its turn is over; False if one is left (its
        deletion would wait, or failed), to be deleted at the next look."""
        channel_id = session.channel_id
        if channel_id not in self._pings:
            self._pings[channel_id] = await self.store.get(channel_id)
        ping = self._pings[channel_id]
        if ping is None or ping.turn == turn:
            return True
        if self._would_wait(delete_route(channel_id, ping.message_id), session):
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

    def _would_wait(self, route: Route, session: Session) -> bool:
        """Whether `route` would wait for a rate limit now; if so the channel is looked
        at again once it has reset."""
        wait = wait_before(self.client.http, route)
        if not wait:
            return False
        channel_id = session.channel_id
        retry = self._retries.get(channel_id)
        if retry is not None:
            retry.note(session)
            return True
        log.info("turn ping skipped: %s would wait %.1f s (rate limit)", route.key, wait)
        delay = min(wait, MAX_RETRY_SECONDS) + RETRY_MARGIN_SECONDS
        handle = asyncio.get_running_loop().call_later(delay, self._look_again, channel_id)
        self._retries[channel_id] = _LookAgain(handle, session)
        return True

    def _look_again(self, channel_id: int) -> None:
        retry = self._retries.pop(channel_id, None)
        if retry is None:
            return
        look = self.after(Change(None, retry.latest, []))
        self._retrying.start(look, "turn-ping")

    def _turn_key(self, session: Session) -> str | None:
        """Which turn is being played (None: no game in progress)."""
        if session.status is not Status.PLAYING or session.game is None:
            return None
        adapter = self.games.plugin(session.kind).adapter
        return f"{session.id}:{adapter.turn_key(session.game)}"
