"""PostgreSQL away: which driver errors say so, how an outage is logged (a few warning
lines, no traceback), and a pool that finds its connections gone connects again."""

from __future__ import annotations

import asyncio
import logging
import re

import asyncpg
import pytest

from bot.observability.health import database_check
from bot.storage import apply_migrations
from bot.storage.postgres.database import PostgresDatabase, _dropped_when_away, where
from bot.storage.postgres.outage import STILL_DOWN_EVERY_SECONDS, Outage, is_away
from bot.storage.protocols import DatabaseBusy, DatabaseUnavailable, StorageError, unhurried


@pytest.mark.parametrize(
    "error",
    [
        ConnectionRefusedError(111, "Connection refused"),
        TimeoutError(),
        asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
        asyncpg.CannotConnectNowError("the database system is starting up"),
        asyncpg.AdminShutdownError("terminating connection due to administrator command"),
        asyncpg.InterfaceError("cannot call Transaction.rollback(): connection is closed"),
        asyncpg.InternalClientError("cannot switch to state 12; another operation in progress"),
    ],
)
def test_errors_that_say_the_server_is_away(error: BaseException) -> None:
    assert is_away(error)
    assert isinstance(Outage().error(error), DatabaseUnavailable)


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.UniqueViolationError("duplicate key value"),
        asyncpg.UndefinedTableError('relation "nope" does not exist'),
        asyncpg.InterfaceError("cannot perform operation: another operation is in progress"),
    ],
)
def test_errors_about_the_statement_are_plain_storage_errors(error: BaseException) -> None:
    assert not is_away(error)
    raised = Outage().error(error)
    assert type(raised) is StorageError


def test_an_error_raised_over_a_cut_is_the_database_away() -> None:
    cut = asyncpg.InternalClientError(
        "cannot switch to state 15; another operation (2) is in progress"
    )
    statement = DatabaseUnavailable(f"InternalClientError: {cut}")
    statement.__cause__ = cut  # the layer's, `raise ... from` the driver's
    # The rollback's, raised while that one was handled (an `except` block's context).
    rollback = asyncpg.InterfaceError("cannot perform operation: another operation is in progress")
    rollback.__context__ = statement
    assert is_away(rollback)
    assert str(Outage().error(rollback)) == f"InternalClientError: {cut}"


def test_an_outage_is_a_few_warning_lines(caplog: pytest.LogCaptureFixture) -> None:
    now = [100.0]
    outage = Outage(clock=lambda: now[0])
    caplog.set_level(logging.INFO, logger="bot.storage.postgres.outage")
    refused = ConnectionRefusedError(111, "Connection refused")
    for _ in range(5):  # the first refusal is told, not every one
        outage.error(refused)
        now[0] += 1
    now[0] += STILL_DOWN_EVERY_SECONDS
    outage.error(refused)
    outage.answered()
    outage.answered()  # up and up again: said once
    lines = [r.getMessage() for r in caplog.records]
    assert all(r.levelno == logging.WARNING and not r.exc_info for r in caplog.records)
    assert len(lines) == 3, lines
    assert lines[0].startswith("database unreachable (ConnectionRefusedError")
    assert lines[1].startswith("database still unreachable after 65 s")
    assert "DATABASE_URL" in lines[1]
    assert lines[2] == "database reachable again after 65.0 s"


def test_where_names_the_server_without_credentials() -> None:
    assert where("postgresql://bot:secret@db.example:5433/games") == "db.example:5433/games"
    assert where("postgresql://bot@/games?host=/run/postgresql") == "/run/postgresql/games"


async def test_a_pool_whose_connections_were_cut_connects_again(postgres_url: str) -> None:
    db = await PostgresDatabase.open(postgres_url)
    try:
        admin = await asyncpg.connect(postgres_url)
        try:
            # What a server restart does to the bot's connections.
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()
        answers = []
        for _ in range(3):
            try:
                answers.append((await db.fetchone("SELECT 1"))[0])  # type: ignore[index]
            # The dropped connection is found on first use, however asyncpg reports the
            # cut (sometimes as its own protocol state error): the bot's layer says away.
            except DatabaseUnavailable:
                answers.append(None)
        assert answers[-1] == 1 and not db.outage.down
        assert await database_check(db)() is None
    finally:
        await db.close()


async def test_health_says_why_the_database_is_unreachable() -> None:
    class Away:
        async def fetchone(self, sql: str) -> None:
            raise DatabaseUnavailable("ConnectionRefusedError: [Errno 111] Connection refused")

    reason = await database_check(Away())()  # type: ignore[arg-type]
    assert reason == "database unreachable: ConnectionRefusedError: [Errno 111] Connection refused"


async def test_a_statement_on_a_server_that_does_not_answer_times_out(postgres_url: str) -> None:
    db = await PostgresDatabase.open(postgres_url, command_timeout=0.2)
    try:
        with pytest.raises(DatabaseUnavailable, match="TimeoutError"):
            await asyncio.wait_for(db.fetchone("SELECT pg_sleep(5)"), 3)
        assert (await db.fetchone("SELECT 1"))[0] == 1  # type: ignore[index]
    finally:
        await db.close()


async def test_migrations_wait_as_long_as_they_need(postgres_url: str) -> None:
    """Two processes starting together: one waits for the other's migrations (its
    advisory lock) for longer than a statement may take elsewhere."""
    db = await PostgresDatabase.open(postgres_url, command_timeout=0.2)
    other = await asyncpg.connect(postgres_url)
    try:
        holding = other.transaction()
        await holding.start()
        await other.execute("SELECT pg_advisory_xact_lock(727476)")  # migrate.py's lock
        migrating = asyncio.create_task(apply_migrations(db))
        await asyncio.sleep(0.6)
        assert not migrating.done()
        await holding.rollback()
        assert await asyncio.wait_for(migrating, 30)  # every migration, applied once
        with unhurried():
            assert (await db.fetchone("SELECT 1 FROM pg_sleep(0.4)")) is not None
        with pytest.raises(DatabaseUnavailable):  # elsewhere the timeout holds
            await db.fetchone("SELECT 1 FROM pg_sleep(0.4)")
    finally:
        await other.close()
        await db.close()


async def test_a_pool_with_every_connection_in_use_is_busy_not_down(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """At 1,000 games a restarted process's released timers took all 10 connections
    for longer than the acquire timeout: that is load, not an outage, and the log and
    /healthz must not say the server is away."""
    caplog.set_level(logging.INFO, logger="bot.storage.postgres")
    db = await PostgresDatabase.open(postgres_url, pool_size=1, acquire_timeout=0.2)
    try:
        async with db.transaction() as holding:  # the one connection, in use
            await holding.execute("SELECT 1")
            for _ in range(3):
                with pytest.raises(DatabaseBusy, match="all 1 pooled connections in use"):
                    await db.fetchone("SELECT 1")
            assert not db.outage.down
            assert await database_check(db, timeout=1.0)() is None
        assert (await db.fetchone("SELECT 1"))[0] == 1  # type: ignore[index]
    finally:
        await db.close()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1, lines  # three waits, one warning a minute
    assert lines[0].startswith("database busy: all 1 pooled connections in use for 0.2 s")
    assert "unreachable" not in caplog.text and not any(r.exc_info for r in caplog.records)


class _PoolThatRunsOut:
    """A pool whose wait for a connection runs out, while the server answered other
    statements meanwhile or not."""

    def __init__(self, answered_meanwhile: bool) -> None:
        self.answered_meanwhile = answered_meanwhile
        self.db: PostgresDatabase | None = None

    async def acquire(self, timeout: float) -> None:
        if self.answered_meanwhile:
            assert self.db is not None
            self.db.outage.answered()  # another transaction committed during the wait
        raise TimeoutError

    def get_max_size(self) -> int:
        return 10


@pytest.mark.parametrize("answered_meanwhile", [True, False])
async def test_a_wait_for_a_connection_is_busy_only_if_the_server_answered(
    answered_meanwhile: bool,
) -> None:
    """At a restart under load the pool's connections were still being made when the
    wait ran out: the server answered the others all along. A server that answered
    nothing during the wait is away."""
    pool = _PoolThatRunsOut(answered_meanwhile)
    db = PostgresDatabase(pool, "postgresql://bot@db.example/games")  # type: ignore[arg-type]
    pool.db = db
    with pytest.raises(DatabaseUnavailable) as raised:
        await db.fetchone("SELECT 1")
    assert isinstance(raised.value, DatabaseBusy) is answered_meanwhile
    assert db.outage.down is not answered_meanwhile


async def test_a_connection_already_given_back_is_not_dropped_again() -> None:
    """asyncpg hands a connection it saw close back to the pool itself; dropping it
    again raised InterfaceError over the outage (a traceback at the database kill)."""

    class GivenBack:
        def terminate(self) -> None:
            raise asyncpg.InterfaceError(
                "cannot call Connection.terminate(): connection has been released back to the pool"
            )

    cut = asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")
    with pytest.raises(asyncpg.ConnectionDoesNotExistError):
        async with _dropped_when_away(GivenBack()):  # type: ignore[arg-type]
            raise cut


CUT = "cannot switch to state 12; another operation (10) is in progress"


class _FailingRollback:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc_info: object) -> None:
        raise asyncpg.InterfaceError("cannot perform operation: another operation is in progress")


class CutMidTransaction:
    """A pooled connection the server cut in the middle of a transaction: its statement
    meets asyncpg's protocol state error, and the rollback after it fails in asyncpg's
    words for a busy connection, which alone would read as the statement's fault. Its
    own pool (`acquire`, `release`), or a stand-in for one connection of a real pool."""

    def __init__(self) -> None:
        self.terminated = False
        self.given_back: list[object] = []

    async def acquire(self, timeout: float) -> CutMidTransaction:
        return self

    async def release(self, connection: object) -> None:
        self.given_back.append(connection)

    def get_max_size(self) -> int:
        return 10

    def transaction(self) -> _FailingRollback:
        return _FailingRollback()

    async def execute(self, *args: object, **kwargs: object) -> str:
        raise asyncpg.InternalClientError(CUT)

    fetch = fetchval = fetchrow = executemany = execute

    def terminate(self) -> None:
        self.terminated = True


async def test_a_cut_mid_transaction_is_the_database_away_though_the_rollback_fails_too(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The rollback's error was what the bot read: a plain StorageError (the click
    answered "something went wrong", a traceback logged), the outage unnoticed and the
    cut connection given back to the pool as if alive."""
    caplog.set_level(logging.INFO, logger="bot.storage.postgres")
    cut = CutMidTransaction()
    db = PostgresDatabase(cut, "postgresql://bot@db.example/games")  # type: ignore[arg-type]
    with pytest.raises(DatabaseUnavailable, match=re.escape(f"InternalClientError: {CUT}")):
        async with db.transaction() as connection:
            await connection.execute("UPDATE sessions SET version = 2 WHERE id = 1")
    assert db.outage.down
    assert cut.terminated  # dropped, not left to serve the next click
    assert [r.getMessage() for r in caplog.records] == [
        f"database unreachable (InternalClientError: {CUT}): moves are refused until it answers"
    ]
