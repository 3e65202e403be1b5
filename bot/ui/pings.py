"""Turn pings: an edit never notifies anyone, so when a person's turn starts a short new
message mentions them (and only them); it is deleted when that turn ends, so the channel
does not fill up. None for computer players, none for people who turned them off
(/<game> notify)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import discord

from bot.games.registry import plugin
from bot.i18n import t
from bot.sessions.model import Session, Status
from bot.sessions.service import Change
from bot.storage.notify import NotifyStore

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Ping:
    turn: str  # the adapter's turn key: the ping belongs to this turn
    message_id: int


class TurnPings:
    """One ping at most per channel, for the turn in progress. Kept in memory: after a
    restart the next turn pings again (an old ping then stays, as a plain message)."""

    def __init__(self, client: discord.Client, settings: NotifyStore) -> None:
        self.client = client
        self.settings = settings
        self._pings: dict[int, Ping] = {}  # channel id -> the ping of its current turn
        self._locks: dict[int, asyncio.Lock] = {}  # changes in a channel, one at a time

    async def after(self, change: Change) -> None:
        """Delete the ping of a turn that ended; ping the person whose turn started."""
        lock = self._locks.setdefault(change.session.channel_id, asyncio.Lock())
        try:
            async with lock:
                await self._follow(change.session)
        except discord.HTTPException as error:
            log.info("turn ping in channel %s failed: %s", change.session.channel_id, error)

    async def _follow(self, session: Session) -> None:
        channel_id = session.channel_id
        turn = _turn_key(session)
        ping = self._pings.get(channel_id)
        if ping is not None and ping.turn == turn:
            return  # the same turn goes on
        if ping is not None:
            del self._pings[channel_id]
            await self._delete(channel_id, ping.message_id)
        if turn is None:
            return
        seat = session.seat_to_move(plugin(session.kind).adapter)
        if seat is None or seat.is_bot or not await self.settings.turn_pings(seat.user_id):
            return
        channel = self.client.get_partial_messageable(channel_id)
        text = t("turn.ping", mention=f"<@{seat.user_id}>", game=plugin(session.kind).title)
        message = await channel.send(
            text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(seat.user_id)])
        )
        self._pings[channel_id] = Ping(turn, message.id)

    async def _delete(self, channel_id: int, message_id: int) -> None:
        try:
            channel = self.client.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as error:  # deleted by hand, or no permission
            log.info("could not delete turn ping %s: %s", message_id, error)


def _turn_key(session: Session) -> str | None:
    """Which turn is being played (None: no game in progress)."""
    if session.status is not Status.PLAYING or session.game is None:
        return None
    adapter = plugin(session.kind).adapter
    return f"{session.id}:{adapter.turn_key(session.game)}"
