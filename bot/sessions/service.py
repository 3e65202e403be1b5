"""The session service: one live session per channel, loaded on demand, changed under a
per-channel lock, and committed to the database before anyone is shown the change.

The lock covers loading, applying and committing only: a change is shown after the lock
is released, in commit order (bot.sessions.showing), so nothing Discord does (latency,
a rate limit's wait, a retry) holds the channel.

Right after each commit, still under the lock, the commit listeners are told (the
table's tabs follow every change so, whatever made it). With several processes on one
PostgreSQL database and the table on (`notify_commits`), each commit also notifies the
others (bot.sessions.other_processes), which adopt the change: the process that owns
the guild then arms its timer and shows it in the live message.

A change is a function that edits a draft copy of the session; the committed session
is swapped in only after the commit, so a refused request or a failed commit leaves
the session exactly as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from bot.process.background import BackgroundTasks
from bot.process.worker_threads import COMPUTER_PLAYERS, run_in
from bot.sessions import lobby, play
from bot.sessions.adapter import AnyAdapter, GameEvent
from bot.sessions.endings import RecentEndings
from bot.sessions.errors import (
    AlreadyLive,
    CommitFailed,
    DatabaseDown,
    MessageUnreachable,
    NoSession,
    StaleButton,
    StaleMessage,
    StaleVersion,
)
from bot.sessions.model import Ending, Session, Status
from bot.sessions.observer import NoObserver, SessionObserver
from bot.sessions.other_processes import OtherProcesses
from bot.sessions.showing import ShowOrder
from bot.sessions.shown import ShownVersions
from bot.sessions.timers import TimerWheel
from bot.sessions.tools import ChangeTools
from bot.storage.protocols import Connection, Database, DatabaseUnavailable, StorageError
from bot.storage.sessions import SessionRow, SessionStore, VersionConflict, commit_notice, encode

log = logging.getLogger(__name__)

Mutation = Callable[[Session, ChangeTools], list[GameEvent]]
# The dice of a change to a practice game: given the draft the change edits (read when a
# die is rolled, so the script follows the game) and the service's random source, the
# source the change rolls with (a game's tutorial script, then the given one).
PracticeDice = Callable[[Session, Any], Any]
GameOverHook = Callable[[Connection, Session, list[GameEvent]], Awaitable[None]]
TIMER_RETRY_SECONDS = 5.0
ENDINGS_KEPT = 64  # just-ended games whose events stay in memory for their end screen
REPAIR_RETRY_SECONDS = (2.0, 8.0, 30.0, 120.0)  # then the next failure or start-up tries
# A timer another process claimed (or already applied): look again after this pause.
TIMER_CLAIMED_RETRY_SECONDS = 1.0
DEFAULT_BOT_STEP_SECONDS = 1.0
CLOSE_SHOWING_SECONDS = 5.0  # at shutdown, for the changes still being shown


@dataclass(frozen=True, slots=True)
class Expect:
    """What a click was made on: the game, its state version (strict) and the message."""

    session_id: int | None = None
    version: int | None = None
    message_id: int | None = None

    def check(self, session: Session | None) -> Session:
        if session is None:
            raise StaleButton() if self.session_id is not None else NoSession()
        if self.session_id is not None and session.id != self.session_id:
            raise StaleButton()
        if (
            self.message_id is not None
            and session.message_id is not None
            and self.message_id != session.message_id
        ):
            raise StaleMessage()
        if self.version is not None and self.version != session.version:
            raise StaleVersion()
        return session


@dataclass(frozen=True, slots=True)
class Change:
    before: Session | None
    session: Session
    events: list[GameEvent]

    @property
    def ended(self) -> bool:
        was_over = self.before is not None and self.before.status is Status.OVER
        return self.session.status is Status.OVER and not was_over


Publish = Callable[[Change], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Defer:
    """What a click does when its change must wait for earlier ones of its channel to be
    shown: by `by` (a time.monotonic() instant) it acknowledges its interaction with
    `act`, so it is answered within Discord's 3 seconds, and is shown later."""

    act: Callable[[], Awaitable[None]]
    by: float


class Acknowledgement:
    """A click's Defer kept while its change is loaded and committed: a database that is
    slow to answer (or hangs until the driver's timeout) does not hold the click past
    `defer.by` unanswered. Nothing else answers the click meanwhile, so the two cannot
    both answer; `settle()` waits for an acknowledgement under way."""

    def __init__(self, defer: Defer) -> None:
        self._defer = defer
        self._task: asyncio.Task[None] | None = None
        delay = max(0.0, defer.by - time.monotonic())
        self._timer = asyncio.get_running_loop().call_later(delay, self._start)

    def _start(self) -> None:
        self._task = asyncio.create_task(self._act(), name="acknowledge-slow-click")

    async def _act(self) -> None:
        try:
            await self._defer.act()
        except Exception as error:
            log.warning("could not acknowledge a click held by the database: %r", error)

    async def settle(self) -> bool:
        """Stop the timer; whether the click was acknowledged (after waiting for it)."""
        self._timer.cancel()
        if self._task is None:
            return False
        await self._task
        return True


Post = Callable[[Session], Awaitable[int | None]]
# Told of each change right after its commit (or its adoption from another process),
# under the channel's lock, so in commit order: it must only take note and return.
CommitListener = Callable[["Change"], None]


class SessionListener(Protocol):
    """The UI, told about changes nobody clicked for (the turn timer, computer players)."""

    async def session_changed(self, change: Change) -> None: ...

    async def turn_reminder(self, session: Session, user_id: int) -> None: ...


class SessionService:
    def __init__(
        self,
        db: Database,
        adapters: Mapping[str, AnyAdapter],
        *,
        rng: Any = None,
        clock: Callable[[], float] = time.time,
        bot_step_seconds: float = DEFAULT_BOT_STEP_SECONDS,
        owns_guild: Callable[[int], bool] | None = None,
        practice_dice: Mapping[str, PracticeDice] | None = None,
        notify_commits: bool = False,
    ) -> None:
        self.db = db
        # Sharded processes: the guilds whose timers this process arms and whose live
        # messages it shows (a change another process made is adopted here first).
        self.owns_guild = owns_guild or (lambda guild_id: True)
        # PostgreSQL with the table on: every commit notifies the other processes, who
        # tell them by this token from their own.
        self.notify_commits = notify_commits and db.dialect == "postgres"
        self.process_token = secrets.token_hex(8)
        self.commit_listeners: list[CommitListener] = []
        self._failed_listeners: set[CommitListener] = set()  # logged once each
        # Channels someone here follows (the table's tabs): after a lost notification
        # connection they are read again, whichever process owns them.
        self.followed: Counter[int] = Counter()
        self.other_processes: OtherProcesses | None = None  # follow_other_processes()
        self.store = SessionStore(db)
        self.observer: SessionObserver = NoObserver()  # the bot sets its metrics here
        # Called right after each change is committed, in the context of the work that
        # made it (bot.connection.inflight marks the interaction being handled as
        # committed).
        self.committed: Callable[[], None] = lambda: None
        self.adapters = dict(adapters)
        self.rng = rng if rng is not None else secrets.SystemRandom()
        self.practice_dice = dict(practice_dice or {})  # by game kind: its tutorial's dice
        self.clock = clock
        self.bot_step_seconds = bot_step_seconds
        self.timers = TimerWheel(
            self.run_timer, clock, lateness=lambda seconds: self.observer.timer_late(seconds)
        )
        self.listener: SessionListener | None = None
        self.game_over_hooks: dict[str, GameOverHook] = {}  # by game kind: its history
        # Told of each game that ended, right after its final commit (the reviews start
        # there, while its events are still in memory); must not block.
        self.ending_listeners: list[Callable[[Session], None]] = []
        self._live: dict[int, Session] = {}
        self.endings = RecentEndings(ENDINGS_KEPT)
        self._locks: dict[int, asyncio.Lock] = {}
        self.order = ShowOrder()  # each channel's changes shown in commit order
        self._last_seq: dict[int, int] = {}  # session id -> its last event's seq
        self.shown = ShownVersions(self.store)
        self._repairs = BackgroundTasks()  # and the adopted changes being shown
        self._showing = BackgroundTasks()  # changes made away from the chat, being shown
        self.repair_retry_seconds: tuple[float, ...] = REPAIR_RETRY_SECONDS
        self._repair_retry: asyncio.TimerHandle | None = None
        self._repair_failures = 0  # passes in a row that left a message behind

    # ----------------------------------------------------------------- reading

    def adapter(self, kind: str) -> AnyAdapter:
        return self.adapters[kind]

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def live(self, channel_id: int) -> Session | None:
        """The channel's lobby or game in progress, from memory or the database."""
        session = self._live.get(channel_id)
        if session is not None:
            return session
        row = await self.store.live_in_channel(channel_id)
        if row is None:
            return None
        session = Session.from_row(row, self.adapter(row.kind))
        self._live[channel_id] = session
        return session

    async def by_id(self, session_id: int) -> Session | None:
        """Any session, ended ones too (e.g. for Play again)."""
        for session in self._live.values():
            if session.id == session_id:
                return session
        row = await self.store.get(session_id)
        return None if row is None else Session.from_row(row, self.adapter(row.kind))

    # ----------------------------------------------------------------- changing

    async def open(
        self, session: Session, post: Post | None = None, *, begin: Mutation | None = None
    ) -> Session:
        """Create the channel's session (a lobby); `begin`, a first change committed before
        it is shown (a practice game starts at once); `post` shows it and returns the
        message id."""
        async with self.lock(session.channel_id):
            existing = await self.live(session.channel_id)
            if existing is not None:
                raise AlreadyLive(session=existing)
            session.created_at = int(self.clock())
            session.version = 1
            try:
                async with self.db.transaction() as connection:
                    row = session.to_row(self.adapter(session.kind))
                    session_id = await self.store.insert(connection, row)
                    notice = self._notice(session.channel_id, session_id, session.version)
                    if notice is not None:
                        await self.store.notify(connection, notice)
            except DatabaseUnavailable as error:
                log.info(
                    "could not create a session in channel %s: database %s (%s)",
                    session.channel_id,
                    error.state,
                    error,
                )
                raise DatabaseDown() from error
            except StorageError as error:
                log.exception("could not create a session in channel %s", session.channel_id)
                raise CommitFailed() from error
            session.id = session_id
            self._live[session.channel_id] = session
            log.info("session %s opened in channel %s", session.id, session.channel_id)
            self._tell_committed(Change(None, session, []))
            if begin is not None:
                session = (await self._apply(session, begin, bump=True)).session
            if post is not None:
                await self._attach(session, post, close_unseen=True)
            return self._live[session.channel_id]

    async def show_unseen(self, session: Session, post: Post) -> Session:
        """Show by `post` the channel's live session that has no message, and keep the
        new message's id: its start's process died before its answer reached Discord or
        before it kept the message's id, and nothing else would ever show it again.
        AlreadyLive if the channel's session has a message (or is another one) by now."""
        async with self.lock(session.channel_id):
            current = await self.live(session.channel_id)
            if current is None or current.id != session.id or current.message_id is not None:
                raise AlreadyLive(session=current or session)
            log.info("session %s had no message: shown again", current.id)
            return await self._attach(current, post)

    async def _close_unseen(self, session: Session) -> None:
        """A new session whose first showing failed (its command answered after Discord's
        3 s, or its answer refused) was seen by nobody: closed (a lobby cancelled, a
        practice game abandoned), so that the next command opens one that is shown rather
        than point at one that is not. Best effort: if the database is away too, it
        stays, as before (a practice game then ends by its turn timer)."""
        if session.status is Status.OVER:
            return

        def close(draft: Session, tools: ChangeTools) -> list[GameEvent]:
            if draft.status is Status.LOBBY:
                return lobby.cancel(draft, tools, draft.host_id, moderator=True)
            return play.end(draft, tools, draft.host_id, moderator=True)

        try:
            await self._apply(session, close, bump=True)  # the session `open` just put live
        except StorageError as error:
            log.info("session %s, never shown, left open: %s", session.id, error)
        else:
            log.info("session %s closed: its first showing failed", session.id)

    async def update(
        self,
        channel_id: int,
        mutate: Mutation,
        *,
        expect: Expect | None = None,
        publish: Publish | None = None,
        bump: bool = True,
        defer: Defer | None = None,
    ) -> Change:
        """Apply `mutate` to the channel's session and commit it (under the channel's
        lock); then `publish` it, after the changes committed before it (not locked).
        `defer` is called first if it must wait for them."""
        acknowledged = None if defer is None else Acknowledgement(defer)
        try:
            async with self.lock(channel_id):
                current = (expect or Expect()).check(await self.live(channel_id))
                change = await self._apply(current, mutate, bump=bump)
                turn = self.order.take(channel_id, shows_message=bump) if publish is not None else 0
        finally:
            if acknowledged is not None and await acknowledged.settle():
                defer = None  # acknowledged while the database was slow: not twice
        if publish is not None:
            await self._publish(change, publish, turn, shows_version=bump, defer=defer)
        return change

    async def update_shown_later(
        self, channel_id: int, mutate: Mutation, *, expect: Expect | None = None
    ) -> Change:
        """Apply `mutate` to the channel's session and commit it, for a change made
        away from the chat (at the table): returned once committed, the live message
        not waited for. Where this process shows the guild's messages, it follows in
        the background as a timer's change does: in its turn, through the listener, and
        skipped when a newer change of the channel has taken its turn meanwhile (newest
        wins, never a queue of edits: a message the bot's token edits takes one of its
        requests at a time, however fast the table plays); one that fails is shown
        again by the repair."""
        async with self.lock(channel_id):
            current = (expect or Expect()).check(await self.live(channel_id))
            change = await self._apply(current, mutate, bump=True)
            shown = self.owns_guild(current.guild_id)  # elsewhere its owner adopts it
            turn = self.order.take(channel_id) if shown else None
        if turn is not None:
            show = self._publish(
                change, self._tell_changed, turn, shows_version=True, supersedable=True
            )
            self._showing.start(show, f"show-change-{channel_id}")
        return change

    async def show(
        self, channel_id: int, publish: Publish, *, expect: Expect | None = None
    ) -> Session:
        """Show the channel's session as it is now, changing nothing (Continue, or a click
        on a message that fell behind): in its turn after the changes before it, and
        recorded as shown. Returns the session shown."""
        async with self.lock(channel_id):
            session = (expect or Expect()).check(await self.live(channel_id))
            turn = self.order.take(channel_id)
        await self._publish(Change(session, session, []), publish, turn, shows_version=True)
        return session

    def is_behind(self, session: Session) -> bool:
        """Whether the session's live message shows an older version than committed."""
        return session.id in self.shown.behind

    def mark_shown(self, session: Session) -> None:
        """An ended session's message was shown as it is (it has no turn to take)."""
        self.shown.shown(session)

    async def repost(self, channel_id: int, post: Post) -> tuple[Session, int | None]:
        """Show the session in a new live message; return it and the previous message id."""
        async with self.lock(channel_id):
            session = Expect().check(await self.live(channel_id))
            previous = session.message_id
            session = await self._attach(session, post)
            return session, previous

    async def _attach(self, session: Session, post: Post, *, close_unseen: bool = False) -> Session:
        """Show the session by `post` and keep its message's id. With `close_unseen` (a new
        session), one `post` failed to show is closed as it raises."""
        try:
            message_id = await post(session)
        except Exception:
            if close_unseen:
                await self._close_unseen(session)
            raise
        if message_id is None:
            return session

        def attach(draft: Session, _: ChangeTools) -> list[GameEvent]:
            draft.message_id = message_id
            return []

        change = await self._apply(session, attach, bump=False)
        self.shown.shown(change.session)
        return change.session

    async def _apply(
        self, current: Session, mutate: Mutation, *, bump: bool, timer: bool = False
    ) -> Change:
        """Apply and commit (the caller holds the channel's lock); not shown yet."""
        adapter = self.adapter(current.kind)
        draft = current.copy(adapter)
        tools = ChangeTools(adapter, self._dice(draft), self.clock())
        events = mutate(draft, tools)
        self._settle(draft, tools)
        if bump:
            draft.version += 1
        draft.remember(events)
        change = Change(current, draft, events)
        encoded = [encode(event) for event in events]  # once, for the table and the log
        began = time.perf_counter()
        await self._commit(change, adapter, encoded, timer=timer)
        self.committed()
        self._observe(change, time.perf_counter() - began)
        if draft.status is Status.OVER:
            self._live.pop(draft.channel_id, None)
        else:
            self._live[draft.channel_id] = draft
        self._tell_committed(change)
        if encoded and log.isEnabledFor(logging.DEBUG):
            # At DEBUG: the events are in the database, and a log record per click cost a
            # twentieth of the click. One line a change, its events as a JSON list.
            text = f"[{','.join(encoded)}]"
            log.debug("game %s channel %s v%s %s", draft.id, draft.channel_id, draft.version, text)
        if self.owns_guild(draft.guild_id):  # elsewhere its owner adopts it and arms it
            self.timers.set(draft.channel_id, draft.next_timer_instant())
        if draft.id in self.shown.behind:
            # A message already behind is now behind this version: a repair shows this one.
            self.shown.not_shown(draft)
        return change

    def _tell_committed(self, change: Change) -> None:
        """Tell each commit listener of a change just committed (or adopted). A listener
        that fails is logged, once, and the change stands: it was committed."""
        for listener in self.commit_listeners:
            try:
                listener(change)
            except Exception:
                if listener not in self._failed_listeners:
                    self._failed_listeners.add(listener)
                    log.exception("commit listener %r failed (logged once)", listener)

    def _notice(self, channel_id: int, session_id: int, version: int) -> str | None:
        """What a commit tells the other processes, if they are to be told."""
        if not self.notify_commits:
            return None
        return commit_notice(channel_id, session_id, version, self.process_token)

    # ----------------------------------------------------------------- other processes

    def follow_other_processes(self) -> None:
        """Take in the changes other processes commit (with `notify_commits`): once, at
        start-up, before the timers are restored."""
        if self.notify_commits and self.other_processes is None:
            self.other_processes = OtherProcesses(self)
            self.other_processes.start()

    def forget(self, channel_id: int) -> None:
        """Drop the copy in memory of the channel's session (another process changed
        it): the next look reads it."""
        session = self._live.pop(channel_id, None)
        if session is not None and session.id is not None:
            self._last_seq.pop(session.id, None)

    def follow(self, channel_id: int) -> None:
        """Someone here follows the channel's session (a tab of the table): read it
        again after a lost notification connection. Once per `unfollow`."""
        self.followed[channel_id] += 1

    def unfollow(self, channel_id: int) -> None:
        self.followed[channel_id] -= 1
        if self.followed[channel_id] <= 0:
            del self.followed[channel_id]

    async def adopt(self, channel_id: int, session_id: int | None = None) -> Change | None:
        """Read the channel's session (`session_id`: that one, ended or not) as another
        process committed it, and take it in place of the copy in memory if it is
        newer: the commit listeners are told, and if this process owns the guild its
        timer is armed and the change shown in the live message (after this returns),
        as a timer's. The change adopted, or None when nothing here is older than the
        database."""
        async with self.lock(channel_id):
            current = self._live.get(channel_id)
            row = await self._stored(channel_id, session_id, current)
            if row is None or row.channel_id != channel_id or not _newer(row, current):
                return None
            session = Session.from_row(row, self.adapter(row.kind))
            same = current is not None and current.id == session.id
            before = current if same else None
            since = before.version if before is not None else 0
            assert session.id is not None
            events = await self.store.events_after(session.id, since)
            self._last_seq.pop(session.id, None)  # the other process numbered events on
            if session.status is Status.OVER:
                self._live.pop(channel_id, None)
            else:
                self._live[channel_id] = session
            change = Change(before, session, events)
            self._tell_committed(change)
            owned = self.owns_guild(session.guild_id)
            if owned:
                self.timers.set(channel_id, session.next_timer_instant())
            moved = before is None or session.version > before.version
            turn = self.order.take(channel_id) if owned and moved else None
        log.info("adopted session %s v%s in channel %s", session.id, session.version, channel_id)
        if turn is not None:  # in the background: a catch-up adopts many channels at once
            show = self._publish(
                change, self._tell_changed, turn, shows_version=True, supersedable=True
            )
            self._repairs.start(show, f"show-adopted-{channel_id}")
        return change

    async def _stored(
        self, channel_id: int, session_id: int | None, current: Session | None
    ) -> SessionRow | None:
        """The stored row of session `session_id`, else of the channel's live session,
        else of the copy in memory (which has ended, then)."""
        if session_id is not None:
            return await self.store.get(session_id)
        row = await self.store.live_in_channel(channel_id)
        if row is None and current is not None and current.id is not None:
            row = await self.store.get(current.id)
        return row

    def _dice(self, draft: Session) -> Any:
        """What a change to `draft` rolls with: a practice game's script, else the dice."""
        script = self.practice_dice.get(draft.kind) if draft.practice else None
        return self.rng if script is None else script(draft, self.rng)

    def _observe(self, change: Change, commit_seconds: float) -> None:
        self.observer.commit(commit_seconds)
        session, before = change.session, change.before
        if (
            before is not None
            and before.status is Status.LOBBY
            and session.status is Status.PLAYING
        ):
            self.observer.game_started(session.kind)
        if change.ended and session.ending is not Ending.CANCELLED:
            self.observer.game_finished(session.kind, session.ending is Ending.ABANDONED)

    def in_memory(self, channel_id: int | None) -> Session | None:
        """The channel's live session if it is in memory (no database read)."""
        return None if channel_id is None else self._live.get(channel_id)

    def live_channels(self) -> list[int]:
        """The channels whose lobby or game is in memory."""
        return list(self._live)

    def live_counts(self) -> dict[str, int]:
        """Lobbies and games in memory, by game kind (the live-sessions gauge)."""
        counts: dict[str, int] = {}
        for session in self._live.values():
            counts[session.kind] = counts.get(session.kind, 0) + 1
        return counts

    async def _publish(
        self,
        change: Change,
        publish: Publish,
        turn: int,
        *,
        shows_version: bool,
        defer: Defer | None = None,
        supersedable: bool = False,
    ) -> None:
        """Show a committed change in its turn; if that fails, show the sessions left
        behind again (through the channel), so that no message keeps buttons of an older
        version. A supersedable change (an edit through the channel) is not shown when a
        newer one of the channel follows."""
        draft = change.session
        channel_id = draft.channel_id
        if defer is not None and not self.order.is_next(channel_id, turn):
            patience = max(0.0, defer.by - time.monotonic())
            if not await self.order.wait(channel_id, turn, timeout=patience):
                try:
                    await defer.act()
                except Exception as error:
                    log.warning("could not defer the answer to session %s: %r", draft.id, error)
        try:
            shown = await self.order.run(
                channel_id, turn, lambda: publish(change), supersedable=supersedable
            )
        except Exception as error:
            # Discord's error codes are counted as responses arrive (bot.observability).
            # An unreachable message is expected (it waits for a click): no warning.
            level = logging.INFO if isinstance(error, MessageUnreachable) else logging.WARNING
            log.log(level, "could not show session %s v%s: %r", draft.id, draft.version, error)
            if shows_version:
                self.shown.not_shown(draft)
                self._repair_failures = 0  # new trouble: the retries start over
                self._start_repair()
            return
        if shown and shows_version:
            self.shown.shown(draft)

    # ----------------------------------------------------------------- repair

    def _start_repair(self) -> None:
        self._repairs.start(self.repair(), "repair-live-messages")

    async def repair_stored(self) -> int:
        """At start-up: show again every message the database says is behind its
        session (a reply lost to a crash); return how many were shown."""
        try:
            rows = await self.store.behind()
        except StorageError as error:
            log.warning("could not read the messages to show again: %s", error)
            return 0
        # Sharded: another process shows its own guilds' messages (from newer versions).
        for row in (row for row in rows if self.owns_guild(row.guild_id)):
            session = Session.from_row(row, self.adapter(row.kind))
            if session.status is not Status.OVER:
                session = self._live.setdefault(session.channel_id, session)
            self.shown.not_shown(session)
        return await self.repair()

    async def repair(self) -> int:
        """Show each session that is behind as it is now, through the channel, under
        its lock; return how many were shown (the others wait for the next try)."""
        repaired = 0
        for session_id, first_seen in list(self.shown.behind.items()):
            listener = self.listener
            if listener is None:
                break
            channel_id = first_seen.channel_id
            async with self.lock(channel_id):
                behind = self.shown.behind.get(session_id)
                if behind is None:
                    continue  # shown meanwhile
                live = self._live.get(channel_id)
                session = live if live is not None and live.id == session_id else behind
                turn = self.order.take(channel_id)
            show = functools.partial(listener.session_changed, Change(session, session, []))
            try:
                shown = await self.order.run(channel_id, turn, show, supersedable=True)
            except Exception as error:
                level = logging.INFO if isinstance(error, MessageUnreachable) else logging.WARNING
                log.log(level, "could not show session %s again: %r", session_id, error)
                continue
            if shown:
                self.shown.shown(session)
                repaired += 1
                log.info("showed session %s v%s again", session_id, session.version)
        self._retry_repair_later()
        return repaired

    def _retry_repair_later(self) -> None:
        """Discord may be down for a while: try again later, a few times, backing off."""
        if not self.shown.behind or self.listener is None:
            self._repair_failures = 0
            return
        if self._repair_retry is not None or self._repair_failures >= len(
            self.repair_retry_seconds
        ):
            return
        delay = self.repair_retry_seconds[self._repair_failures]
        self._repair_failures += 1
        self._repair_retry = asyncio.get_running_loop().call_later(delay, self._retry_repair)

    def _retry_repair(self) -> None:
        self._repair_retry = None
        self._start_repair()

    def _settle(self, draft: Session, tools: ChangeTools) -> None:
        """The status and turn clock that follow from the game after a change."""
        adapter = tools.adapter
        if draft.status is Status.PLAYING and adapter.is_over(draft.game):
            draft.status = Status.OVER
            abandoned = adapter.is_abandoned(draft.game)
            draft.ending = Ending.ABANDONED if abandoned else Ending.FINISHED
            draft.ended_at = int(tools.now)
        # A computer player to move steps after a short pause; the turn timer is for people.
        seat = draft.seat_to_move(adapter)
        bot_turn = seat is not None and seat.computer_plays
        clock = draft.clock
        clock.bot_due = tools.now + self.bot_step_seconds if bot_turn else None
        if bot_turn or draft.status is not Status.PLAYING or draft.timer_seconds is None:
            clock.stop_timing()
        else:
            clock.start_turn(adapter.turn_key(draft.game), tools.now)

    async def _commit(
        self, change: Change, adapter: AnyAdapter, encoded: list[str], *, timer: bool = False
    ) -> None:
        """Write the draft and its events (`encoded`) in one transaction, with the history
        record when the game ends there. The session's row is locked first (a due timer is
        claimed, skipped if another process holds it); the version check decides."""
        draft, before = change.session, change.before
        assert before is not None and draft.id is not None
        last_seq = self._last_seq.get(draft.id)
        if last_seq is None:
            last_seq = await self.store.last_seq(draft.id)
        # Other sessions' marks ride along on SQLite (one writer). On PostgreSQL a commit
        # writes its own row only: two commits each locking their row and then marking
        # the other's would deadlock; the others are written by the flush, in id order.
        own = draft.id if self.db.dialect == "postgres" else None
        marks = self.shown.take(own)
        try:
            if change.ended:
                await self._commit_ending(change, adapter, encoded, last_seq + 1, marks, timer)
            else:
                row = draft.to_row(adapter)
                notice = self._notice(draft.channel_id, draft.id, draft.version)
                await self.store.commit(
                    row, before.version, last_seq + 1, encoded, marks, timer=timer, notice=notice
                )
        except VersionConflict as error:
            # Another process moved the session on: forget our copy and refuse the click.
            self.observer.version_conflict()
            self.shown.give_back(marks)
            self._live.pop(draft.channel_id, None)
            self._last_seq.pop(draft.id, None)
            raise StaleVersion() from error
        except DatabaseUnavailable as error:
            self.shown.give_back(marks)
            # Most likely rolled back; but a commit cut off after the server had it is
            # not: the copy in memory is forgotten, so the next look reads the truth.
            self._live.pop(draft.channel_id, None)
            self._last_seq.pop(draft.id, None)
            # INFO: the outage itself is the warning (bot.storage.postgres.outage, a line
            # when it begins, a minute it lasts and ends); a line per click was hundreds.
            log.info(
                "could not commit session %s v%s: database %s (%s)",
                draft.id,
                draft.version,
                error.state,
                error,
            )
            raise DatabaseDown() from error
        except (StorageError, ValueError) as error:
            self.shown.give_back(marks)
            log.exception("could not commit session %s v%s", draft.id, draft.version)
            raise CommitFailed() from error
        if change.ended:
            self._last_seq.pop(draft.id, None)
            for listener in self.ending_listeners:
                listener(draft)
        else:
            self._last_seq[draft.id] = last_seq + len(encoded)

    async def _commit_ending(
        self,
        change: Change,
        adapter: AnyAdapter,
        encoded: list[str],
        first_seq: int,
        marks: dict[int, int],
        timer: bool,
    ) -> None:
        """The final commit: the row, the events, the history record, and then the
        finished session made compact: its history holds the story, so its events go,
        and the row keeps the final game (for Play again) without the message's log."""
        draft, before = change.session, change.before
        assert before is not None and draft.id is not None
        row = draft.to_row(adapter)
        row.state.pop("log", None)
        async with self.db.transaction() as connection:
            if timer:
                if not await self.store.claim_timer(connection, draft.id, before.version):
                    raise VersionConflict(f"session {draft.id}'s timer is claimed")
            else:
                await self.store.lock_for_update(connection, draft.id)
            await self.store.update(connection, row, before.version)
            await self.store.append_events(connection, draft.id, draft.version, encoded, first_seq)
            recorded = True
            if draft.started_at is not None:
                recorded = await self._record_result(connection, draft)
            if draft.rating_changes:  # the hook's rating changes, for the end screen
                again = draft.to_row(adapter)
                again.state.pop("log", None)
                await self.store.update(connection, again, draft.version)
            if recorded:
                await self.store.drop_events(connection, draft.id)
            await self.store.write_shown(connection, marks)
            notice = self._notice(draft.channel_id, draft.id, draft.version)
            if notice is not None:
                await self.store.notify(connection, notice)

    async def _record_result(self, connection: Connection, session: Session) -> bool:
        """Run the game's game-over hook (its history) inside the final commit's
        transaction; whether the history holds the game now (a game without a hook has
        no history, so it keeps its events).

        A failing hook is rolled back to its savepoint and logged, so a bug in history
        never keeps a game from ending (its events are kept then).
        """
        assert session.id is not None
        hook = self.game_over_hooks.get(session.kind)
        if hook is None:
            return False
        texts = await self.store.event_texts_in(connection, session.id)
        # Kept before the compaction below drops them: the end screen is drawn just after.
        self.endings.remember(session.id, texts)
        events = [orjson.loads(text) for text in texts]
        await connection.execute("SAVEPOINT game_over_hook")
        recorded = True
        try:
            await hook(connection, session, events)
        except Exception:
            await connection.execute("ROLLBACK TO game_over_hook")
            log.exception("game-over hook of %s failed for game %s", session.kind, session.id)
            recorded = False
        await connection.execute("RELEASE game_over_hook")
        return recorded

    async def ended_events(self, session_id: int) -> list[GameEvent]:
        """Every event of an ended game: from memory right after it ended, else whatever
        the database still holds (nothing once compacted, after a restart)."""
        remembered = self.endings.events(session_id)
        if remembered is not None:
            return remembered
        return await self.store.events(session_id)

    # ----------------------------------------------------------------- timers

    async def restore_timers(self) -> int:
        """Arm the turn timers of every stored game (at start-up); return how many."""
        rows = [row for row in await self.store.with_deadlines() if self.owns_guild(row.guild_id)]
        last_seqs = await self.store.live_last_seqs()
        for row in rows:
            session = Session.from_row(row, self.adapter(row.kind))
            self._live.setdefault(session.channel_id, session)
            if row.id is not None:  # its first commit need not read it
                self._last_seq.setdefault(row.id, last_seqs.get(row.id, 0))
            self.timers.set(session.channel_id, row.deadline)
        return len(rows)

    async def run_timer(self, channel_id: int) -> None:
        """The channel's clock is due: a computer player's step, or for a person the ping
        at half time and the end of the turn at expiry."""
        try:
            async with self.lock(channel_id):
                due = await self._run_timer(channel_id)
        except StaleVersion:
            # Another process applied it or holds the session; the next look reads it again.
            log.info("turn timer in channel %s was claimed elsewhere", channel_id)
            self.timers.set(channel_id, self.clock() + TIMER_CLAIMED_RETRY_SECONDS)
        except (DatabaseDown, DatabaseUnavailable) as error:
            # Expected while the database is away: what is due happens once it is back.
            # DatabaseDown says why through the DatabaseUnavailable it was raised from.
            why = error if isinstance(error, DatabaseUnavailable) else error.__cause__ or error
            log.info(
                "turn timer in channel %s: database %s (%s); retrying in %g s",
                channel_id,
                why.state if isinstance(why, DatabaseUnavailable) else "unreachable",
                why,
                TIMER_RETRY_SECONDS,
            )
            self.timers.set(channel_id, self.clock() + TIMER_RETRY_SECONDS)
        except Exception:
            log.exception("turn timer failed in channel %s; retrying", channel_id)
            self.timers.set(channel_id, self.clock() + TIMER_RETRY_SECONDS)
        else:
            if due is not None:
                change, publish, turn, shows = due
                await self._publish(change, publish, turn, shows_version=shows, supersedable=shows)

    async def _run_timer(self, channel_id: int) -> tuple[Change, Publish, int, bool] | None:
        """Apply what is due (under the channel's lock); the change to show, how, its
        turn and whether it shows the live message, or None."""
        session = await self.live(channel_id)
        if session is None:
            return None
        now = self.clock()
        bot_due = session.clock.bot_due
        if bot_due is not None:
            if now < bot_due:
                self.timers.set(channel_id, bot_due)
                return None
            move = await self._bot_move(session)

            def step(draft: Session, tools: ChangeTools) -> list[GameEvent]:
                return play.bot_step(draft, tools, move)

            return self._due(await self._apply(session, step, bump=True, timer=True))
        if session.deadline is None or session.half_time is None:
            return None
        if now >= session.deadline:
            return self._due(await self._apply(session, play.expire_turn, bump=True, timer=True))
        if now >= session.half_time and not session.clock.pinged:
            change = await self._apply(session, _mark_pinged, bump=False, timer=True)
            turn = self.order.take(channel_id, shows_message=False)
            return change, self._tell_reminder, turn, False
        self.timers.set(channel_id, session.next_timer_instant())
        return None

    def _due(self, change: Change) -> tuple[Change, Publish, int, bool]:
        """A timer's change, shown through the channel in its turn."""
        turn = self.order.take(change.session.channel_id)
        return change, self._tell_changed, turn, True

    async def _bot_move(self, session: Session) -> str | None:
        """What the computer player to move decides (off the event loop, in one of the
        computer players' threads: bot.process.worker_threads); None on failure."""
        adapter = self.adapter(session.kind)
        seat = session.seat_to_move(adapter)
        if seat is None or not seat.computer_plays:
            return None
        game = adapter.copy(session.game)
        try:
            return await run_in(
                COMPUTER_PLAYERS,
                adapter.bot_move,
                game,
                seat.bot_level or "",
                session.computer_levels(),
            )
        except Exception:
            log.exception("computer player %s could not decide in game %s", seat.name, session.id)
            return None

    async def _tell_changed(self, change: Change) -> None:
        if self.listener is not None:
            await self.listener.session_changed(change)

    async def _tell_reminder(self, change: Change) -> None:
        session = change.session
        player = self.adapter(session.kind).current_player(session.game)
        seat = session.seat_by_player(player or "")
        if self.listener is not None and seat is not None:
            await self.listener.turn_reminder(session, seat.user_id)

    # ----------------------------------------------------------------- shutdown

    async def close(self) -> None:
        """Stop the timers, wait for every change in progress to be committed, and
        record the versions shown."""
        if self.other_processes is not None:
            await self.other_processes.close()
        # Those firing now (a computer player's step, a turn's end) finish, briefly, and
        # arm no other: a step committed while the database closed was a traceback.
        await self.timers.close(timeout=CLOSE_SHOWING_SECONDS)
        if self._repair_retry is not None:
            self._repair_retry.cancel()
        self._repairs.cancel()
        for lock in list(self._locks.values()):
            async with lock:
                pass
        # The changes committed are being shown: let them finish, briefly, so that what
        # they show is recorded (a message left behind is shown again at the next start).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.order.idle(), timeout=CLOSE_SHOWING_SECONDS)
        await self.shown.save()


def _newer(row: SessionRow, current: Session | None) -> bool:
    """Whether the stored `row` is newer than the channel's copy in memory: another
    session (ids only grow), a later version, or the same version with its message
    attached (a change that moves no version)."""
    if current is None:
        return True
    if row.id != current.id:
        return row.id is not None and current.id is not None and row.id > current.id
    if row.version != current.version:
        return row.version > current.version
    return row.message_id != current.message_id


def _mark_pinged(draft: Session, _: ChangeTools) -> list[GameEvent]:
    draft.clock.pinged = True
    return []
