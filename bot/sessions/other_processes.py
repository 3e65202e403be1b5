"""The changes other processes commit, taken in here (PostgreSQL with the table on).

Each commit notifies every process (`pg_notify`, delivered at COMMIT in commit order;
bot.storage.sessions). A process takes in another's change to a channel it cares
about: one whose guild it owns (it arms the timers and shows the live messages there)
or one it follows (a tab of the table is open on it). It adopts the stored session
(`SessionService.adopt`), so its commit listeners hear of the change as of its own. A
copy of any other channel's session is dropped, to be read again when needed. Whose
guild a channel is, when no copy says so, is read once and remembered.

Notifications are not kept for a listener that was away: once listening again, every
followed channel and every owned one in memory is read again.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING

from bot.process.background import BackgroundTasks
from bot.storage.factory import listen
from bot.storage.protocols import StorageError
from bot.storage.sessions import COMMIT_CHANNEL, CommitNotice, read_commit_notice

if TYPE_CHECKING:
    from bot.sessions.service import SessionService
    from bot.storage.postgres.listening import Listening

log = logging.getLogger(__name__)

GUILDS_KNOWN = 65_536  # channels whose guild is remembered (a few MB at most)


class OtherProcesses:
    def __init__(self, sessions: SessionService) -> None:
        self.sessions = sessions
        self.feed: Listening | None = None
        self._guilds: OrderedDict[int, int] = OrderedDict()  # channel -> its guild
        self._work = BackgroundTasks()

    def start(self) -> None:
        self.feed = listen(self.sessions.db, COMMIT_CHANNEL, self.heard, self.listening)

    async def close(self) -> None:
        if self.feed is not None:
            await self.feed.close()
        self._work.cancel()
        await self._work.wait()

    def heard(self, payload: str) -> None:
        """A commit's notification (this process's own too, which it skips)."""
        notice = read_commit_notice(payload)
        if notice is None:
            log.warning("a notification of %s not ours: %r", COMMIT_CHANNEL, payload)
            return
        if notice.token != self.sessions.process_token:
            self._work.start(self._take(notice), f"adopt-{notice.channel_id}")

    def listening(self, again: bool) -> None:
        """Listening (`again`: after a lost connection, which missed what came meanwhile)."""
        if again:
            self._work.start(self._catch_up(), "adopt-after-reconnect")

    async def _take(self, notice: CommitNotice) -> None:
        sessions = self.sessions
        channel_id = notice.channel_id
        current = sessions.in_memory(channel_id)
        if (
            current is not None
            and current.id == notice.session_id
            and current.version > notice.version
        ):
            return  # a later version was adopted already
        try:
            guild_id = current.guild_id if current is not None else self._guilds.get(channel_id)
            if guild_id is None:
                row = await sessions.store.get(notice.session_id)
                if row is None:
                    return
                guild_id = self._remember(channel_id, row.guild_id)
            if channel_id in sessions.followed or sessions.owns_guild(guild_id):
                change = await sessions.adopt(channel_id, notice.session_id)
                if change is not None:
                    self._remember(channel_id, change.session.guild_id)
            elif current is not None:
                sessions.forget(channel_id)
        except StorageError as error:
            # The next notification, or the next look at the channel, reads it again.
            log.info("could not take in channel %s's change: %r", channel_id, error)

    async def _catch_up(self) -> None:
        """Read again every channel followed here and every owned one in memory."""
        sessions = self.sessions
        owned = [
            channel_id
            for channel_id in sessions.live_channels()
            if (live := sessions.in_memory(channel_id)) is not None
            and sessions.owns_guild(live.guild_id)
        ]
        channels = dict.fromkeys([*sessions.followed, *owned])
        for channel_id in channels:
            try:
                await sessions.adopt(channel_id)
            except StorageError as error:
                log.info("could not read channel %s again: %r", channel_id, error)
        log.info("listening was interrupted: %d channels read again", len(channels))

    def _remember(self, channel_id: int, guild_id: int) -> int:
        self._guilds[channel_id] = guild_id
        self._guilds.move_to_end(channel_id)
        if len(self._guilds) > GUILDS_KNOWN:
            self._guilds.popitem(last=False)
        return guild_id
