"""The session layer while its database is away: a change is refused with DatabaseDown
(nothing changed), a due timer or computer player is tried again and acts once the
database is back, and a click held by a database that does not answer is acknowledged
at its Defer's instant."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.sessions import lobby, play
from bot.sessions.errors import DatabaseDown
from bot.sessions.model import Seat, Session
from bot.sessions.service import TIMER_RETRY_SECONDS, Defer, SessionService
from bot.storage import apply_migrations, open_database
from bot.storage.postgres.database import PostgresDatabase
from bot.storage.protocols import Connection, Database, DatabaseUnavailable, Row, Statement
from tests.sessions.test_service import CHANNEL, Clock, Race, _timed_game
from tests.storage.test_postgres_outage import CutMidTransaction


class Flaky:
    """A database that can be switched away (every call refused, as by a server that is
    down) or made to hang (every call waits until `release()`, then is refused)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.dialect = db.dialect
        self.down = False
        self.hanging: asyncio.Event | None = None

    def hang(self) -> None:
        self.hanging = asyncio.Event()

    def release(self) -> None:
        assert self.hanging is not None
        self.hanging.set()
        self.hanging = None

    async def _gate(self) -> None:
        if self.hanging is not None:
            await self.hanging.wait()
            raise DatabaseUnavailable("TimeoutError")
        if self.down:
            raise DatabaseUnavailable("ConnectionRefusedError: [Errno 111] Connection refused")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        await self._gate()
        async with self.db.transaction() as connection:
            yield connection

    async def execute_batch(self, statements: Sequence[Statement]) -> None:
        await self._gate()
        await self.db.execute_batch(statements)

    async def execute_one(self, statement: Statement) -> None:
        await self._gate()
        await self.db.execute_one(statement)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        await self._gate()
        return await self.db.fetchone(sql, params)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        await self._gate()
        return await self.db.fetchall(sql, params)

    async def close(self) -> None:
        await self.db.close()


@pytest.fixture
async def flaky(tmp_path: Path) -> AsyncIterator[Flaky]:
    db = await open_database(f"sqlite:///{tmp_path}/bot.db")
    await apply_migrations(db)
    yield Flaky(db)
    await db.close()


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def service_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The session service's warnings: none per click or timer in an outage (the outage
    warns once, bot.storage.postgres.outage; 20 s of one were 784 lines a process)."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.sessions.service" and r.levelno >= logging.WARNING
    ]


async def test_a_move_while_the_database_is_down_is_refused_and_changes_nothing(
    flaky: Flaky, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.sessions.service")
    service = SessionService(flaky, {"race": Race()}, rng=random.Random(1), clock=Clock())
    session = await _timed_game(service, 9, CHANNEL)
    flaky.down = True
    with pytest.raises(DatabaseDown):
        await service.update(CHANNEL, lambda s, c: play.make_move(s, c, 1, "add"))
    with pytest.raises(DatabaseUnavailable):  # the copy in memory was forgotten
        await service.live(CHANNEL)
    assert "database unreachable" in caplog.text and not tracebacks(caplog)
    assert service_warnings(caplog) == []
    flaky.down = False
    change = await service.update(CHANNEL, lambda s, c: play.make_move(s, c, 1, "add"))
    assert change.session.version == session.version + 1
    assert [e["type"] for e in await service.store.events(session.id)] == ["added"]
    await service.close()


async def test_a_turn_timer_due_during_the_outage_acts_after_it(
    flaky: Flaky, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.sessions.service")
    clock = Clock()
    service = SessionService(flaky, {"race": Race()}, rng=random.Random(1), clock=clock)
    session = await _timed_game(service, 9, CHANNEL)
    assert session.deadline is not None
    flaky.down = True
    clock.now = session.deadline + 1
    await service.run_timer(CHANNEL)
    assert service.timers.pending()[CHANNEL] == clock.now + TIMER_RETRY_SECONDS
    assert "turn timer in channel" in caplog.text and not tracebacks(caplog)
    assert service_warnings(caplog) == []
    flaky.down = False
    clock.now += TIMER_RETRY_SECONDS
    await service.run_timer(CHANNEL)
    assert [e["type"] for e in await service.store.events(session.id)] == ["timeout"]
    await service.close()


async def test_a_computer_players_step_due_during_the_outage_comes_after_it(
    flaky: Flaky, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    service = SessionService(flaky, {"race": Race()}, rng=random.Random(1), clock=clock)
    opened = Session("race", guild_id=9, channel_id=CHANNEL, host_id=1, seats=[Seat(1, "A")])
    await service.open(opened)
    robot = Seat(-1, "Robot 1", is_bot=True, bot_level="easy")
    await service.update(CHANNEL, lambda s, c: lobby.join(s, c, robot))
    await service.update(CHANNEL, lambda s, c: lobby.start(s, c, 1))
    change = await service.update(CHANNEL, lambda s, c: play.make_move(s, c, 1, "add"))
    due = change.session.clock.bot_due
    assert due is not None
    flaky.down = True
    clock.now = due + 1
    await service.run_timer(CHANNEL)
    assert not tracebacks(caplog)
    flaky.down = False
    clock.now += TIMER_RETRY_SECONDS
    await service.run_timer(CHANNEL)
    events = await service.store.events(change.session.id)
    assert [e["type"] for e in events] == ["added", "added"]  # the robot's step came
    await service.close()


async def test_a_click_held_by_a_hanging_database_is_acknowledged_in_time(flaky: Flaky) -> None:
    service = SessionService(flaky, {"race": Race()}, rng=random.Random(1), clock=Clock())
    await _timed_game(service, 9, CHANNEL)
    acknowledged: list[float] = []

    async def act() -> None:
        acknowledged.append(time.monotonic())

    flaky.hang()
    began = time.monotonic()
    click = asyncio.create_task(
        service.update(
            CHANNEL,
            lambda s, c: play.make_move(s, c, 1, "add"),
            publish=lambda change: asyncio.sleep(0),
            defer=Defer(act, by=began + 0.1),
        )
    )
    await asyncio.sleep(0.3)
    assert not click.done() and len(acknowledged) == 1  # answered while the database hangs
    assert 0.1 <= acknowledged[0] - began < 0.25
    flaky.release()  # the driver's timeout, say
    with pytest.raises(DatabaseDown):
        await click
    assert len(acknowledged) == 1
    await service.close()


class CutNextTransaction:
    """A real pool whose next connection handed out is one the server cut mid-transaction
    (tests/storage/test_postgres_outage.py), then the real pool again."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.cut: CutMidTransaction | None = None

    async def acquire(self, timeout: float) -> Any:
        if self.cut is not None:
            return self.cut
        return await self.pool.acquire(timeout=timeout)

    async def release(self, connection: Any) -> None:
        if connection is self.cut:
            self.cut = None
            return
        await self.pool.release(connection)

    def get_max_size(self) -> int:
        return int(self.pool.get_max_size())

    async def close(self) -> None:
        await self.pool.close()


async def test_a_move_cut_mid_transaction_is_told_to_try_again_without_a_traceback(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    db = await PostgresDatabase.open(postgres_url)
    await apply_migrations(db)
    pool = CutNextTransaction(db.pool)
    db.pool = pool  # type: ignore[assignment]
    service = SessionService(db, {"race": Race()}, rng=random.Random(1), clock=Clock())
    try:
        session = await _timed_game(service, 9, CHANNEL)
        pool.cut = CutMidTransaction()
        with pytest.raises(DatabaseDown):  # "the database is away, try again"
            await service.update(CHANNEL, lambda s, c: play.make_move(s, c, 1, "add"))
        assert pool.cut is None  # the cut connection was used and dropped
        assert "database unreachable (InternalClientError" in caplog.text
        assert not tracebacks(caplog)
        change = await service.update(CHANNEL, lambda s, c: play.make_move(s, c, 1, "add"))
        assert change.session.version == session.version + 1
    finally:
        await service.close()
        await db.close()
