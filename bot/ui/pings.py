"""Turn pings: an edit never notifies anyone, so when a person's turn starts a short new
message mentions them (and only them); it is deleted when that turn ends, so the channel
does not fill up. None for computer players, none for people who turned them off
(/<game> notify). Each is in the language of the person it mentions (their seat's
locale, from their last interaction), not of whoever made the move. With a turn timer,
the half-time reminder takes the ping's place (the ping is deleted as it comes), and
goes the same way when the turn or the game ends.

A ping is a follow-up of the channel's freshest interaction (the click that ended the
turn before, or the freshest one), within Discord's 5 follow-ups an interaction, and is
deleted through the token that created it while that lives: interaction endpoints are
not bound to the bot's global rate limit, and where only a person installed the app (a
group DM, a server without the bot) they are the only way in. With no token fresh, the
bot's own token sends it where that works (a server with the bot, the bot's DM), and
nothing is sent where it does not.

Each ping the bot's token can delete is stored (bot.storage.pings) as well as kept in
memory: after a restart the ping of a turn still in progress is still deleted when that
turn ends, and at start-up (`restore`) the pings of turns that ended while the bot was
down are deleted. A ping only a token could delete is kept in memory alone.

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

from bot.i18n import t, with_locale
from bot.plugin import Games
from bot.process.background import BackgroundTasks
from bot.sessions.model import Place, Session, Status
from bot.sessions.service import Change, SessionService
from bot.storage.notify import NotifyStore
from bot.storage.pings import PingStore, StoredPing
from bot.storage.protocols import StorageError
from bot.ui.click_tokens import InteractionTokens, Token
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
    across restarts; memory holds each channel's ping once read or written. At a start,
    `load` reads the store once for every game in memory, so that no change in a game
    reads it (a restart's replayed clicks and due timers come all at once); a channel
    loaded later reads it at its first change."""

    def __init__(
        self,
        client: discord.Client,
        games: Games,
        settings: NotifyStore,
        store: PingStore,
        paused: PausedChannels | None = None,
        tokens: InteractionTokens | None = None,
    ) -> None:
        self.client = client
        self.paused = paused or PausedChannels()
        self.tokens = tokens or InteractionTokens()
        # The interaction whose follow-up each ping is (by message id): only its token
        # may delete it. And where each channel's game is played (what the bot token may).
        self._creators: dict[int, Token] = {}
        self._places: dict[int, Place] = {}
        self.games = games
        self.settings = settings
        self.store = store
        self._pings: dict[int, StoredPing | None] = {}  # channel id -> its ping, once known
        self._from_before: list[StoredPing] | None = None  # loaded, for `restore` to sort out
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
        # in a paused channel only follow-ups go; its next change after resuming pings
        await self._in_channel(change.session, self._follow, "turn ping")

    async def remind(self, session: Session) -> None:
        """Half of the turn's time is gone: remind the person to move, in place of their
        ping (any mention of the turn before it is deleted)."""
        await self._in_channel(session, self._remind, "turn reminder")

    async def _in_channel(
        self, session: Session, work: Callable[[Session], Awaitable[None]], what: str
    ) -> None:
        """`work(session)` under the channel's lock; a 403 to the bot's token pauses the
        channel (bot.ui.paused_channels: then follow-ups alone go), and a message that
        could not go is logged, never raised."""
        channel_id = session.channel_id
        self._places[channel_id] = session.place
        if channel_id in self.paused and not self.tokens.has_followup(channel_id):
            return  # nothing can go: the bot's token waits there, and no token is fresh
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

    async def load(self, sessions: SessionService) -> bool:
        """At start-up, before the gateway: every stored ping of this process's guilds,
        and for each game in memory without one, that it has none. Whether they could
        be read (if not, each channel reads its own at its first change)."""
        try:
            # Sharded: only the pings of this process's guilds.
            stored = [p for p in await self.store.all() if sessions.owns_guild(p.guild_id)]
        except StorageError as error:
            log.warning("could not read the stored turn pings: %s", error)
            return False
        for channel_id in sessions.live_channels():
            self._pings.setdefault(channel_id, None)
        for ping in stored:
            self._pings[ping.channel_id] = ping
        self._from_before = stored
        return True

    async def restore(self, sessions: SessionService) -> int:
        """At start-up: delete the stored pings whose turn is over (it ended, or its game
        did, while the bot was down), pinging whoever's turn it is now; keep the others
        for their turn's end. Returns how many were deleted."""
        if self._from_before is None and not await self.load(sessions):
            return 0
        stored, self._from_before = self._from_before or [], []
        deleted = 0
        for ping in stored:
            try:
                async with self._lock(ping.channel_id):
                    if self._pings.get(ping.channel_id) is not ping:
                        continue  # a change in the channel came first and dealt with it
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
        if not self.tokens.has_followup(session.channel_id) and self._would_wait(
            send_route(session.channel_id), session
        ):
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
        routes = (
            [] if self.tokens.has_followup(session.channel_id) else [send_route(session.channel_id)]
        )
        if ping is not None and not self._token_deletes(ping):
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
        if not self._token_deletes(ping) and self._would_wait(
            delete_route(channel_id, ping.message_id), session
        ):
            return False  # never a second ping beside a stale one
        if not await self._drop(ping):
            return False
        self._pings[channel_id] = None
        return True

    async def _post(self, session: Session, turn: str, user_id: int, text: str) -> None:
        """Send `text` mentioning `user_id` alone, as the channel's ping of `turn`: a
        follow-up of the freshest interaction, else with the bot's token where it works."""
        channel_id = session.channel_id
        mentions = discord.AllowedMentions(users=[discord.Object(user_id)])
        message_id = await self._post_followup(channel_id, text, mentions)
        if message_id is None:
            if not self._bot_token_works(channel_id):
                log.info("no turn ping in channel %s: no interaction token is fresh", channel_id)
                return
            channel = self.client.get_partial_messageable(channel_id)
            message_id = (await channel.send(text, allowed_mentions=mentions)).id
        ping = StoredPing(channel_id, session.guild_id, session.id or 0, turn, message_id)
        self._pings[channel_id] = ping
        if session.place.bot_token_works:  # what the bot token can delete after a restart
            await self.store.put(ping)

    async def _post_followup(
        self, channel_id: int, text: str, mentions: discord.AllowedMentions
    ) -> int | None:
        """Send `text` as a follow-up of the channel's freshest interaction that may
        still make one; its message id, or None where none could."""
        while (token := self.tokens.for_followup(channel_id)) is not None:
            try:
                message = await token.interaction.followup.send(
                    text, allowed_mentions=mentions, wait=True
                )
            except discord.HTTPException as error:
                # 40094 (its 5 follow-ups made), 50027 or 10015 (its token is gone), 401:
                # that interaction makes no more; the next freshest may.
                log.info("turn ping as a follow-up of %s refused: %s", token.interaction.id, error)
                self.tokens.spent(token)
                continue
            self._creators[message.id] = token
            return message.id
        return None

    def _bot_token_works(self, channel_id: int) -> bool:
        """Whether the bot's own token may post and delete in the channel now: where the
        bot is (bot.ui.places), and no 403 paused it (bot.ui.paused_channels)."""
        place = self._places.get(channel_id, Place.SERVER)
        return place.bot_token_works and channel_id not in self.paused

    def _token_deletes(self, ping: StoredPing) -> bool:
        """Whether the token that created the ping will delete it (no bot-token route)."""
        creator = self._creators.get(ping.message_id)
        return creator is not None and self.tokens.alive(creator)

    async def _drop(self, ping: StoredPing) -> bool:
        """Delete the message, then its record (a crash between the two leaves a record
        whose message is gone: deleting it again at the next start is harmless). Whether
        it is gone."""
        creator = self._creators.pop(ping.message_id, None)
        if creator is not None and self.tokens.alive(creator):
            try:
                await creator.interaction.followup.delete_message(ping.message_id)
                await self.store.remove(ping.channel_id, ping.message_id)
                return True
            except discord.NotFound:  # deleted by hand
                await self.store.remove(ping.channel_id, ping.message_id)
                return True
            except discord.HTTPException as error:  # its token went early: the bot's, if any
                log.info("could not delete turn ping %s by its token: %s", ping.message_id, error)
        if ping.channel_id in self.paused:
            return False  # the bot's token may not now: deleted once the channel resumes
        if not self._bot_token_works(ping.channel_id):
            # Only its token could delete it, and that is gone: it stays in the chat.
            log.info("turn ping %s left: no token can delete it now", ping.message_id)
            await self.store.remove(ping.channel_id, ping.message_id)
            return True
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
