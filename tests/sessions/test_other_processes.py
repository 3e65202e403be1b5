"""Two processes on one PostgreSQL database, the table on (`notify_commits`): each
commit notifies the other (NOTIFY at COMMIT, in commit order), which adopts the change,
tells its commit listeners within a second, and, if it owns the guild, arms the timer
and shows the live message. A cut LISTEN connection is made again and what it missed
is read. SQLite (one process) and a bot without the table notify nothing."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable

import asyncpg
import pytest

from bot.sessions import actions
from bot.sessions.actions import Actor
from bot.sessions.model import Session, Status
from bot.sessions.service import Change, SessionService
from bot.storage import apply_migrations, open_database
from bot.storage.protocols import Database
from bot.storage.sessions import COMMIT_CHANNEL, SessionStore, VersionConflict
from tests.sessions.test_service import CHANNEL, Clock, Race

GUILD = 9
SOON = 1.0  # the bound: a change reaches the other process's tabs within a second
ANNE, BOB = Actor(1, "Anne", "en"), Actor(2, "Bob", "pl")


class Heard:
    """A commit listener: the versions it was told of, and a wait for one."""

    def __init__(self) -> None:
        self.changes: list[Change] = []
        self._new = asyncio.Event()

    def __call__(self, change: Change) -> None:
        self.changes.append(change)
        self._new.set()

    @property
    def versions(self) -> list[int]:
        return [change.session.version for change in self.changes]

    async def until(self, seen: Callable[[], bool], timeout: float = SOON) -> None:
        async with asyncio.timeout(timeout):
            while not seen():
                self._new.clear()
                await self._new.wait()


class Shown:
    """The live messages' side (SessionListener): the versions it was asked to show."""

    def __init__(self) -> None:
        self.versions: list[int] = []

    async def session_changed(self, change: Change) -> None:
        self.versions.append(change.session.version)

    async def turn_reminder(self, session: Session, user_id: int) -> None:
        return None


async def _process(
    url: str, *, owns: bool, clock: Clock, notify: bool = True
) -> tuple[SessionService, Database]:
    db = await open_database(url)
    service = SessionService(
        db,
        {"race": Race()},
        rng=random.Random(1),
        clock=clock,
        owns_guild=lambda guild_id: owns,
        notify_commits=notify,
    )
    service.follow_other_processes()
    if service.other_processes is not None:
        feed = service.other_processes.feed
        assert feed is not None
        await asyncio.wait_for(feed.until_listening(), 5)
    return service, db


@pytest.fixture
async def two(postgres_url) -> AsyncIterator[tuple[SessionService, SessionService, Clock]]:
    """`owner` (its process owns the guild) and `table` (serves a table there)."""
    setup = await open_database(postgres_url)
    await apply_migrations(setup)
    await setup.close()
    clock = Clock()
    owner, owner_db = await _process(postgres_url, owns=True, clock=clock)
    table, table_db = await _process(postgres_url, owns=False, clock=clock)
    yield owner, table, clock
    for service, db in ((table, table_db), (owner, owner_db)):
        await service.close()
        await db.close()


def _lobby() -> Session:
    return Session(
        "race", guild_id=GUILD, channel_id=CHANNEL, host_id=1, seats=[ANNE.seat()], timer_seconds=60
    )


async def test_each_process_hears_the_others_commits_within_a_second_in_order(two):
    owner, table, _ = two
    at_table, at_owner = Heard(), Heard()
    table.commit_listeners.append(at_table)
    owner.commit_listeners.append(at_owner)
    table.follow(CHANNEL)  # a tab is open on the channel there

    session = await owner.open(_lobby())
    await at_table.until(lambda: at_table.versions == [1])
    await owner.update(CHANNEL, actions.mutation_for(BOB, "join"))
    await owner.update(CHANNEL, actions.mutation_for(ANNE, "start"))
    await at_table.until(lambda: at_table.versions[-1:] == [3])
    assert at_table.versions == sorted(set(at_table.versions))  # in order, each once

    # A move at the table's process: the owner adopts it, and its listeners hear it.
    await table.update(CHANNEL, actions.mutation_for(ANNE, "move", "add"))
    await at_owner.until(lambda: at_owner.versions[-1:] == [4])
    adopted = at_owner.changes[-1]
    assert adopted.before is not None and adopted.before.version == 3
    assert adopted.events == [{"type": "added", "total": 1}]  # what the change did
    live = owner.in_memory(CHANNEL)
    assert live is not None and live.id == session.id and live.version == 4
    # The owner's next commit numbers its events on after the other process's.
    await owner.update(CHANNEL, actions.mutation_for(BOB, "move", "add"))
    await at_table.until(lambda: at_table.versions[-1:] == [5])
    events = await owner.store.events(session.id or 0)
    assert [event["total"] for event in events] == [1, 2]


async def test_only_the_owner_arms_the_timer_and_shows_the_live_message(two):
    owner, table, clock = two
    shown_by_owner, shown_by_table = Shown(), Shown()
    owner.listener = shown_by_owner  # type: ignore[assignment]
    table.listener = shown_by_table  # type: ignore[assignment]
    heard, at_table = Heard(), Heard()
    owner.commit_listeners.append(heard)
    table.commit_listeners.append(at_table)
    table.follow(CHANNEL)

    await owner.open(_lobby())
    await owner.update(CHANNEL, actions.mutation_for(BOB, "join"))
    await owner.update(CHANNEL, actions.mutation_for(ANNE, "start"))
    await at_table.until(lambda: at_table.versions[-1:] == [3])  # taken in there
    await table.update(CHANNEL, actions.mutation_for(ANNE, "move", "add"))
    assert list(table.timers.pending()) == []  # not its guild: no timer here
    await heard.until(lambda: heard.versions[-1:] == [4])
    await owner.order.idle()
    assert shown_by_owner.versions == [4]  # the table's move, shown as a timer's change
    assert list(owner.timers.pending()) == [CHANNEL]
    live = owner.in_memory(CHANNEL)
    assert live is not None and live.deadline is not None
    clock.now = live.deadline + 1
    await owner.run_timer(CHANNEL)  # Bob's turn runs out on the owner's timer
    assert shown_by_table.versions == []


async def test_a_game_ended_by_the_other_process_is_taken_out_of_memory(two):
    owner, table, _ = two
    heard, at_table = Heard(), Heard()
    owner.commit_listeners.append(heard)
    table.commit_listeners.append(at_table)
    table.follow(CHANNEL)
    await owner.open(_lobby())
    await owner.update(CHANNEL, actions.mutation_for(BOB, "join"))
    await owner.update(CHANNEL, actions.mutation_for(ANNE, "start"))
    await at_table.until(lambda: at_table.versions[-1:] == [3])
    await table.update(CHANNEL, actions.end(ANNE))
    await heard.until(lambda: bool(heard.changes) and heard.changes[-1].ended)
    assert owner.in_memory(CHANNEL) is None
    # A new lobby opened at the table is the owner's to know of at once.
    await table.open(_lobby())
    await heard.until(lambda: heard.changes[-1].session.status is Status.LOBBY)
    assert owner.in_memory(CHANNEL) is not None


async def test_a_cut_listen_connection_is_made_again_and_what_it_missed_read(two, postgres_url):
    owner, table, _ = two
    heard = Heard()
    table.commit_listeners.append(heard)
    table.follow(CHANNEL)
    await owner.open(_lobby())
    await heard.until(lambda: heard.versions == [1])

    assert table.other_processes is not None and table.other_processes.feed is not None
    feed = table.other_processes.feed
    assert feed.connection is not None
    pid = feed.connection.get_server_pid()
    admin = await asyncpg.connect(postgres_url)
    try:
        await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()
    # Committed while the table's process is not listening: no notification reaches it.
    await owner.update(CHANNEL, actions.mutation_for(BOB, "join"))
    await heard.until(lambda: heard.versions[-1:] == [2])
    assert feed.connection is not None and feed.connection.get_server_pid() != pid
    await owner.update(CHANNEL, actions.mutation_for(ANNE, "start"))
    await heard.until(lambda: heard.versions[-1:] == [3])


async def test_a_commit_notifies_its_channel_session_version_and_process(postgres_url):
    setup = await open_database(postgres_url)
    await apply_migrations(setup)
    await setup.close()
    heard: asyncio.Queue[str] = asyncio.Queue()
    spy = await asyncpg.connect(postgres_url)
    await spy.add_listener(COMMIT_CHANNEL, lambda *args: heard.put_nowait(args[-1]))
    clock = Clock()
    quiet, quiet_db = await _process(postgres_url, owns=True, clock=clock, notify=False)
    loud, loud_db = await _process(postgres_url, owns=True, clock=clock)
    try:
        session = await quiet.open(_lobby())
        await quiet.update(CHANNEL, actions.mutation_for(BOB, "join"))
        await asyncio.sleep(0.3)
        assert heard.empty()  # a bot without the table pays nothing

        await loud.update(CHANNEL, actions.mutation_for(BOB, "leave"))
        token = loud.process_token
        assert await asyncio.wait_for(heard.get(), SOON) == f"{CHANNEL} {session.id} 3 {token}"
        # A commit refused by the version check notifies nothing, either way it is made.
        store = SessionStore(loud_db)
        stale = session.to_row(Race())
        for commit in (store.commit, store.commit_as_batch):
            with pytest.raises(VersionConflict):
                await commit(stale, 1, 9, [], {}, notice=f"{CHANNEL} {session.id} 2 {token}")
        row = await store.get(session.id or 0)
        assert row is not None and row.version == 3
        row.version = 4
        await store.commit_as_batch(row, 3, 1, [], {}, notice="batch")
        assert await asyncio.wait_for(heard.get(), SOON) == "batch"
        await asyncio.sleep(0.2)  # nothing else on its way
        assert heard.empty()
    finally:
        await spy.close()
        for service, db in ((quiet, quiet_db), (loud, loud_db)):
            await service.close()
            await db.close()


async def test_sqlite_serves_one_process_and_notifies_nothing(tmp_path):
    db = await open_database(f"sqlite:///{tmp_path}/bot.db")
    await apply_migrations(db)
    service = SessionService(db, {"race": Race()}, notify_commits=True)
    service.follow_other_processes()
    assert not service.notify_commits and service.other_processes is None
    heard: list[int] = []
    service.commit_listeners.append(lambda change: heard.append(change.session.version))
    await service.open(_lobby())
    assert heard == [1]
    await service.close()
    await db.close()
