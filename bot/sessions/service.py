"""The session service: one live session per channel, loaded on demand, changed under a
per-channel lock, and committed to the database before anyone is shown the change.

A change is a function that edits a draft copy of the session; the committed session
is swapped in only after the commit, so a refused request or a failed commit leaves
the session exactly as it was.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.sessions import play
from bot.sessions.adapter import AnyAdapter, GameEvent
from bot.sessions.errors import (
    AlreadyLive,
    CommitFailed,
    NoSession,
    StaleButton,
    StaleMessage,
    StaleVersion,
)
from bot.sessions.model import Ending, Session, Status
from bot.sessions.timers import TimerWheel
from bot.sessions.tools import ChangeTools
from bot.storage.protocols import Connection, Database, StorageError
from bot.storage.sessions import SessionStore, VersionConflict, encode

log = logging.getLogger(__name__)

Mutation = Callable[[Session, ChangeTools], list[GameEvent]]
GameOverHook = Callable[[Connection, Session, list[GameEvent]], Awaitable[None]]
TIMER_RETRY_SECONDS = 5.0
# A timer another process claimed (or already applied): look again after this pause.
TIMER_CLAIMED_RETRY_SECONDS = 1.0
DEFAULT_BOT_STEP_SECONDS = 1.0


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
Post = Callable[[Session], Awaitable[int | None]]


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
    ) -> None:
        self.db = db
        # Sharded processes: the guilds whose timers this process re-arms at start-up.
        self.owns_guild = owns_guild or (lambda guild_id: True)
        self.store = SessionStore(db)
        self.adapters = dict(adapters)
        self.rng = rng if rng is not None else secrets.SystemRandom()
        self.clock = clock
        self.bot_step_seconds = bot_step_seconds
        self.timers = TimerWheel(self.run_timer, clock)
        self.listener: SessionListener | None = None
        self.game_over_hooks: dict[str, GameOverHook] = {}  # by game kind: its history
        self._live: dict[int, Session] = {}
        self._locks: dict[int, asyncio.Lock] = {}

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

    async def open(self, session: Session, post: Post | None = None) -> Session:
        """Create the channel's session (a lobby); `post` shows it and returns the message id."""
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
            except StorageError as error:
                log.exception("could not create a session in channel %s", session.channel_id)
                raise CommitFailed() from error
            session.id = session_id
            self._live[session.channel_id] = session
            log.info("session %s opened in channel %s", session.id, session.channel_id)
            if post is not None:
                await self._attach(session, post)
            return self._live[session.channel_id]

    async def update(
        self,
        channel_id: int,
        mutate: Mutation,
        *,
        expect: Expect | None = None,
        publish: Publish | None = None,
        bump: bool = True,
    ) -> Change:
        """Apply `mutate` to the channel's session and commit it; then `publish` (locked)."""
        async with self.lock(channel_id):
            current = (expect or Expect()).check(await self.live(channel_id))
            return await self._apply(current, mutate, publish, bump=bump)

    async def repost(self, channel_id: int, post: Post) -> tuple[Session, int | None]:
        """Show the session in a new live message; return it and the previous message id."""
        async with self.lock(channel_id):
            session = Expect().check(await self.live(channel_id))
            previous = session.message_id
            session = await self._attach(session, post)
            return session, previous

    async def _attach(self, session: Session, post: Post) -> Session:
        message_id = await post(session)
        if message_id is None:
            return session

        def attach(draft: Session, _: ChangeTools) -> list[GameEvent]:
            draft.message_id = message_id
            return []

        change = await self._apply(session, attach, None, bump=False)
        return change.session

    async def _apply(
        self,
        current: Session,
        mutate: Mutation,
        publish: Publish | None,
        *,
        bump: bool,
        timer: bool = False,
    ) -> Change:
        adapter = self.adapter(current.kind)
        tools = ChangeTools(adapter, self.rng, self.clock())
        draft = current.copy(adapter)
        events = mutate(draft, tools)
        self._settle(draft, tools)
        if bump:
            draft.version += 1
        draft.remember(events)
        change = Change(current, draft, events)
        encoded = [encode(event) for event in events]  # once, for the table and the log
        await self._commit(change, adapter, encoded, timer=timer)
        if draft.status is Status.OVER:
            self._live.pop(draft.channel_id, None)
        else:
            self._live[draft.channel_id] = draft
        for text in encoded:
            log.info("game %s channel %s v%s %s", draft.id, draft.channel_id, draft.version, text)
        if publish is not None:
            try:
                await publish(change)
            except Exception:
                # The change is committed; the next update or /pickomino status shows it.
                log.exception("could not show session %s v%s", draft.id, draft.version)
        self.timers.set(draft.channel_id, draft.next_timer_instant())
        return change

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
        bot_turn = seat is not None and seat.is_bot
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
        try:
            async with self.db.transaction() as connection:
                if timer:
                    if not await self.store.claim_timer(connection, draft.id, before.version):
                        raise VersionConflict(f"session {draft.id}'s timer is claimed")
                else:
                    await self.store.lock_for_update(connection, draft.id)
                await self.store.update(connection, draft.to_row(adapter), before.version)
                await self.store.append_events(connection, draft.id, draft.version, encoded)
                if change.ended and draft.started_at is not None:
                    await self._record_result(connection, draft)
        except VersionConflict as error:
            # Another process moved the session on: forget our copy and refuse the click.
            self._live.pop(draft.channel_id, None)
            raise StaleVersion() from error
        except (StorageError, ValueError) as error:
            log.exception("could not commit session %s v%s", draft.id, draft.version)
            raise CommitFailed() from error

    async def _record_result(self, connection: Connection, session: Session) -> None:
        """Run the game's game-over hook (its history) inside the final commit's transaction.

        A failing hook is rolled back to its savepoint and logged, so a bug in history
        never keeps a game from ending.
        """
        assert session.id is not None
        hook = self.game_over_hooks.get(session.kind)
        if hook is None:
            return
        events = await self.store.events_in(connection, session.id)
        await connection.execute("SAVEPOINT game_over_hook")
        try:
            await hook(connection, session, events)
        except Exception:
            await connection.execute("ROLLBACK TO game_over_hook")
            log.exception("game-over hook of %s failed for game %s", session.kind, session.id)
        await connection.execute("RELEASE game_over_hook")

    # ----------------------------------------------------------------- timers

    async def restore_timers(self) -> int:
        """Arm the turn timers of every stored game (at start-up); return how many."""
        rows = [row for row in await self.store.with_deadlines() if self.owns_guild(row.guild_id)]
        for row in rows:
            session = Session.from_row(row, self.adapter(row.kind))
            self._live.setdefault(session.channel_id, session)
            self.timers.set(session.channel_id, row.deadline)
        return len(rows)

    async def run_timer(self, channel_id: int) -> None:
        """The channel's clock is due: a computer player's step, or for a person the ping
        at half time and the end of the turn at expiry."""
        try:
            async with self.lock(channel_id):
                await self._run_timer(channel_id)
        except StaleVersion:
            # Another process applied it or holds the session; the next look reads it again.
            log.info("turn timer in channel %s was claimed elsewhere", channel_id)
            self.timers.set(channel_id, self.clock() + TIMER_CLAIMED_RETRY_SECONDS)
        except Exception:
            log.exception("turn timer failed in channel %s; retrying", channel_id)
            self.timers.set(channel_id, self.clock() + TIMER_RETRY_SECONDS)

    async def _run_timer(self, channel_id: int) -> None:
        session = await self.live(channel_id)
        if session is None:
            return
        now = self.clock()
        bot_due = session.clock.bot_due
        if bot_due is not None:
            if now < bot_due:
                self.timers.set(channel_id, bot_due)
                return
            move = await self._bot_move(session)
            await self._apply(
                session,
                lambda draft, tools: play.bot_step(draft, tools, move),
                self._tell_changed,
                bump=True,
                timer=True,
            )
            return
        if session.deadline is None or session.half_time is None:
            return
        if now >= session.deadline:
            await self._apply(session, play.expire_turn, self._tell_changed, bump=True, timer=True)
        elif now >= session.half_time and not session.clock.pinged:
            await self._apply(session, _mark_pinged, self._tell_reminder, bump=False, timer=True)
        else:
            self.timers.set(channel_id, session.next_timer_instant())

    async def _bot_move(self, session: Session) -> str | None:
        """What the computer player to move decides (off the event loop); None on failure."""
        adapter = self.adapter(session.kind)
        seat = session.seat_to_move(adapter)
        if seat is None or not seat.is_bot:
            return None
        game = adapter.copy(session.game)
        try:
            return await asyncio.to_thread(adapter.bot_move, game, seat.bot_level or "")
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
        """Stop the timers and wait for every change in progress to be committed."""
        await self.timers.close()
        for lock in list(self._locks.values()):
            async with lock:
                pass


def _mark_pinged(draft: Session, _: ChangeTools) -> list[GameEvent]:
    draft.clock.pinged = True
    return []
