"""The tabs of the table, by channel, each sent the newest state of its channel's game.

The hub is a commit listener of the session service: told of every change committed
here, or adopted from another process (bot.sessions.other_processes; the hub follows
each channel it has tabs for, so those changes are taken in), whatever made it: a
click, a tab's action, a turn timer, a computer player. It only takes note of the
change and wakes the channel's tabs: it renders nothing under the channel's lock.

Each tab has a sender that sends the newest state when woken: the scene for the tab's
viewer in its language, rendered once per (version, viewer, language) for every tab
that sees the same, never the same version twice. Newest wins, never a queue: a frame
is sent only once the one before has left for the kernel (the socket's backlog is
empty), so a tab that reads slowly skips the versions that came meanwhile, and one
that stops reading (a backlog not gone within `send_seconds`) is dropped: it holds
one frame at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import orjson

from bot.plugin import Games
from bot.plugin.table_scene import scene_of, start_scene
from bot.sessions.adapter import GameEvent
from bot.sessions.model import Ending, Session, Status
from bot.sessions.service import Change, SessionService
from bot.storage.protocols import StorageError
from bot.table import frames

log = logging.getLogger(__name__)

SEND_SECONDS = 10.0  # a state not taken by the tab's socket within this: the tab is dropped
BACKLOG_POLL_SECONDS = 0.02  # how often a tab's backlog is looked at while it has one
RETRY_SECONDS = 1.0  # the database did not answer a read: read again after this
WATCHING = "watching"  # the viewer key of everyone without a seat (they all see the same)

Shown = tuple[int | None, int]  # (session id, version): what a state shows


class Socket(Protocol):
    """Where a tab's frames go (aiohttp's WebSocketResponse)."""

    async def send_str(self, data: str, compress: int | None = None) -> None: ...


class Tab:
    """One socket of the table: whose (`user_id`), which channel's, in which language.
    `send` is bounded by `send_seconds`: a socket whose `backlog` (bytes written but not
    yet taken by the kernel) does not go in time is aborted (`abort`), never buffered
    for."""

    def __init__(
        self,
        socket: Socket,
        abort: Callable[[], None],
        *,
        backlog: Callable[[], int] = lambda: 0,
        user_id: int,
        channel_id: int,
        locale: str,
        send_seconds: float = SEND_SECONDS,
    ) -> None:
        self.socket = socket
        self.abort = abort
        self.backlog = backlog
        self.user_id = user_id
        self.channel_id = channel_id
        self.locale = locale
        self.send_seconds = send_seconds
        self.wake = asyncio.Event()
        self.sent: Shown | None = None
        self.sender: asyncio.Task[None] | None = None
        self.dropped = False
        self._sending = asyncio.Lock()

    async def send(self, text: str) -> bool:
        """Send a frame once the ones before have left; False (and the socket aborted)
        if they do not leave in time or the socket is gone."""
        if self.dropped:
            return False
        try:
            async with asyncio.timeout(self.send_seconds), self._sending:
                await self._drained()
                await self.socket.send_str(text)
        except (TimeoutError, ConnectionError, RuntimeError) as error:
            self._drop(error)
            return False
        return True

    async def ready(self) -> bool:
        """Until the frames sent have left (so that what is sent next is the newest);
        False (and the socket aborted) if they do not leave in time."""
        if self.dropped:
            return False
        try:
            async with asyncio.timeout(self.send_seconds):
                await self._drained()
        except TimeoutError as error:
            self._drop(error)
            return False
        return True

    async def _drained(self) -> None:
        # aiohttp's send returns once the frame is in the transport's buffer, which
        # grows without bound for a tab that stopped reading: wait for it to empty.
        while self.backlog() > 0:
            await asyncio.sleep(BACKLOG_POLL_SECONDS)

    def _drop(self, error: BaseException) -> None:
        log.info("table: dropped a tab in channel %s (%r)", self.channel_id, error)
        self.dropped = True
        self.abort()


class Channel:
    """A channel's tabs and the newest of its session they are shown (None: no game
    yet), with the scenes rendered of it."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        self.tabs: set[Tab] = set()
        self.session: Session | None = None
        self.events: Sequence[GameEvent] = ()
        self.stale = True  # read the session again before the next send
        self.scenes: dict[tuple[Shown, int | str | None, str], str] = {}
        self.story: tuple[int, list[GameEvent]] | None = None  # an ended game's events
        self.reading = asyncio.Lock()

    @property
    def shown(self) -> Shown:
        session = self.session
        return (None, 0) if session is None else (session.id, session.version)

    def take(self, session: Session, events: Sequence[GameEvent]) -> bool:
        """Show `session` if it is newer than what is shown; whether it was."""
        if not _newer(session, self.session):
            return False
        self.session = session
        self.events = events
        self.scenes.clear()
        return True

    def wake(self) -> None:
        for tab in self.tabs:
            tab.wake.set()


class Hub:
    def __init__(
        self,
        sessions: SessionService,
        games: Games,
        *,
        clock: Callable[[], float] = time.time,
        retry_seconds: float = RETRY_SECONDS,
    ) -> None:
        self.sessions = sessions
        self.games = games
        self.clock = clock
        self.retry_seconds = retry_seconds
        self.channels: dict[int, Channel] = {}
        self._start_scenes: dict[str, str] = {}  # by language

    # ------------------------------------------------------------ the commit listener

    def committed(self, change: Change) -> None:
        """A change committed or adopted (under its channel's lock): noted, tabs woken."""
        channel = self.channels.get(change.session.channel_id)
        if channel is not None and channel.take(change.session, change.events):
            channel.wake()

    # ------------------------------------------------------------ tabs

    def join(self, tab: Tab) -> None:
        """Send the tab its channel's state now and after every change."""
        channel = self.channels.get(tab.channel_id)
        if channel is None:
            channel = self.channels[tab.channel_id] = Channel(tab.channel_id)
        channel.tabs.add(tab)
        # Changes committed by other processes are taken in for followed channels.
        self.sessions.follow(tab.channel_id)
        tab.sender = asyncio.create_task(self._serve(tab, channel), name="table-tab")
        tab.wake.set()

    async def leave(self, tab: Tab) -> None:
        channel = self.channels.get(tab.channel_id)
        if channel is None or tab not in channel.tabs:
            return
        channel.tabs.discard(tab)
        self.sessions.unfollow(tab.channel_id)
        if not channel.tabs:
            del self.channels[tab.channel_id]
        if tab.sender is not None:
            tab.sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await tab.sender

    def read_again(self, tab: Tab) -> None:
        """Read the tab's channel's session again and send it if it is newer (a refused
        action: the copy here may be behind another process's commit)."""
        channel = self.channels.get(tab.channel_id)
        if channel is not None:
            channel.stale = True
            tab.wake.set()

    async def close(self) -> None:
        """Stop every tab's sender (the server closes their sockets)."""
        tabs = [tab for channel in self.channels.values() for tab in channel.tabs]
        for tab in tabs:
            await self.leave(tab)

    # ------------------------------------------------------------ sending

    async def _serve(self, tab: Tab, channel: Channel) -> None:
        """The tab's sender: the newest state, each time it is woken."""
        while not tab.dropped:
            await tab.wake.wait()
            if not await tab.ready():
                return
            tab.wake.clear()
            try:
                if channel.stale:
                    await self._read(channel)
                if channel.shown == tab.sent:
                    continue
                shown = channel.shown
                text = await self._state(channel, tab)
            except StorageError as error:
                # Read again shortly: the tab keeps what it has until then.
                log.info("table: channel %s not read (%r)", channel.channel_id, error)
                channel.stale = True
                asyncio.get_running_loop().call_later(self.retry_seconds, tab.wake.set)
                continue
            if text is not None and await tab.send(text):
                tab.sent = shown

    async def _read(self, channel: Channel) -> None:
        """The channel's session as stored, shown if newer than what is shown."""
        async with channel.reading:
            if not channel.stale:
                return  # another tab's sender read it meanwhile
            live = await self.sessions.live(channel.channel_id)
            shown = channel.session
            if live is None and shown is not None and shown.status is not Status.OVER:
                live = await self.sessions.by_id(shown.id or 0)  # it ended: as it ended
            if live is not None:
                channel.take(live, ())
            channel.stale = False
        channel.wake()

    async def _state(self, channel: Channel, tab: Tab) -> str | None:
        """The state frame of what the channel shows, for the tab (None: it cannot be
        drawn, which is logged)."""
        session, events, shown = channel.session, channel.events, channel.shown
        viewer = None if session is None else _viewer(session, tab.user_id)
        key = (shown, viewer, tab.locale)
        scene = channel.scenes.get(key)
        if scene is None:
            story = await self._story(channel, session)
            try:
                scene = self._scene(session, events, story, tab.user_id, tab.locale)
            except Exception:
                log.exception("table: the scene of %s in channel %s failed", shown, tab.channel_id)
                return None
            if channel.shown == shown:  # not if a newer one came while the story was read
                channel.scenes[key] = scene
        return frames.state(shown[0], shown[1], int(self.clock() * 1000), scene)

    async def _story(self, channel: Channel, session: Session | None) -> list[GameEvent]:
        """An ended game's stored events (its end tells more from them), read once."""
        if session is None or session.id is None or session.status is not Status.OVER:
            return []
        if session.ending is Ending.CANCELLED:
            return []
        if channel.story is None or channel.story[0] != session.id:
            channel.story = (session.id, await self.sessions.ended_events(session.id))
        return channel.story[1]

    def _scene(
        self,
        session: Session | None,
        events: Sequence[GameEvent],
        story: list[GameEvent],
        user_id: int,
        locale: str,
    ) -> str:
        if session is None:
            scene = self._start_scenes.get(locale)
            if scene is None:
                drawn = start_scene(list(self.games), locale=locale)
                scene = self._start_scenes[locale] = orjson.dumps(drawn).decode()
            return scene
        game = self.games.plugin(session.kind)
        drawn_scene = scene_of(session, game, user_id, events, locale=locale, story=story)
        return orjson.dumps(drawn_scene).decode()


def _viewer(session: Session, user_id: int) -> int | str:
    """Whose scene a person sees: their own if they sit at the game or host it, else
    the one every watcher sees."""
    if session.seat(user_id) is not None or session.host_id == user_id:
        return user_id
    return WATCHING


def _newer(session: Session, than: Session | None) -> bool:
    """Whether `session` is newer than `than`: a later session (ids only grow) or a
    later version of the same one."""
    if than is None:
        return True
    if session.id != than.id:
        return (session.id or 0) > (than.id or 0)
    return session.version > than.version
