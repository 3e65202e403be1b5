"""PostgreSQL through an asyncpg pool, behind the same protocols as SQLite.

Each transaction takes a pooled connection of its own, so transactions of different
channels run side by side; the stores' `?` placeholders are numbered once per text.
"""

from __future__ import annotations

import contextlib
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Generator,
    Iterable,
    Mapping,
    Sequence,
)
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from bot.storage.postgres.outage import Busy, Outage, is_away
from bot.storage.postgres.placeholders import (
    inserted_table,
    returns_rows,
    status_count,
    translate,
)
from bot.storage.postgres.spelling import postgres_spelling, upsert_table
from bot.storage.protocols import (
    Connection,
    DatabaseUnavailable,
    Row,
    RowCountMismatch,
    Statement,
    StorageError,
    is_unhurried,
)

# InternalClientError: a connection the server cut mid-operation can leave asyncpg's
# protocol in a state it refuses to leave ("cannot switch to state ..."); it derives from
# neither of asyncpg's other bases, and without it that cut reached a click unwrapped.
DRIVER_ERRORS = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    TimeoutError,
)
POOL_SIZE = 10
# How long a statement may wait for the server: a click must be answered within Discord's
# 3 s, and is acknowledged at 1.5 s, so a server that hangs (stopped, a network cut)
# becomes "the database is down" for the clicker instead of a click held for a minute
# (asyncpg's defaults: 60 s to connect, no limit on a statement).
# The first statement a hung server holds fails within 2 s, and the answer saying so
# reaches a command within its 3 s too; the bot's statements take milliseconds.
CONNECT_TIMEOUT = 2.0  # a new connection, the pool's included
ACQUIRE_TIMEOUT = 2.0  # a pooled connection: waiting for a free one, or connecting
COMMAND_TIMEOUT = 2.0  # one statement
UNHURRIED_SECONDS = 24 * 3600.0  # a statement made unhurried(): migrations

# Tables whose rows get their `id` from the database: an INSERT returns it as lastrowid.
_HAS_GENERATED_ID = """
SELECT 1 FROM information_schema.columns
WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'id'
  AND (column_default LIKE 'nextval%' OR is_identity = 'YES')
"""
_COLUMNS = """
SELECT column_name FROM information_schema.columns
WHERE table_schema = current_schema() AND table_name = $1
"""


class SchemaFacts:
    """What statements need to know of the schema, learnt once per table and shared by
    the pool's connections: generated ids (for lastrowid) and upserts' columns."""

    def __init__(self) -> None:
        self.generated_id: dict[str, bool] = {}
        self.spelled: dict[str, str] = {}  # SQLite upsert text -> PostgreSQL's


class PostgresCursor:
    """A finished statement: its rows (all fetched), row count and the new row's id."""

    def __init__(self, rows: list[Row], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self._rowcount = rowcount
        self._lastrowid = lastrowid

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._lastrowid

    async def fetchone(self) -> Row | None:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[Row]:
        return list(self._rows)


class _Statement:
    """`await connection.execute(...)` and `async with connection.execute(...)` alike."""

    def __init__(self, run: Awaitable[PostgresCursor]) -> None:
        self._run = run

    def __await__(self) -> Generator[Any, None, PostgresCursor]:
        return self._run.__await__()

    async def __aenter__(self) -> PostgresCursor:
        return await self._run

    async def __aexit__(self, *exc_info: object) -> None:
        return None


class PostgresConnection:
    """One pooled connection inside a transaction, speaking the Connection protocol."""

    def __init__(self, raw: asyncpg.Connection, schema: SchemaFacts, outage: Outage) -> None:
        self.raw = raw
        self._schema = schema
        self._outage = outage

    def execute(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = (), /) -> Any:
        return _Statement(self._execute(sql, parameters))

    async def executemany(
        self, sql: str, parameters: Iterable[Sequence[Any] | Mapping[str, Any]], /
    ) -> None:
        try:
            statement = translate(await self._spelled(sql))
            await self.raw.executemany(
                statement.text, [statement.arguments(p) for p in parameters], timeout=_timeout()
            )
        except DRIVER_ERRORS as error:
            raise self._outage.error(error) from error

    async def _execute(
        self, sql: str, parameters: Sequence[Any] | Mapping[str, Any]
    ) -> PostgresCursor:
        try:
            statement = translate(await self._spelled(sql))
            args = statement.arguments(parameters)
            table = inserted_table(sql)
            if table is not None and await self._has_generated_id(table):
                new_id = await self.raw.fetchval(
                    statement.text + " RETURNING id", *args, timeout=_timeout()
                )
                return PostgresCursor([], 1, new_id)
            if returns_rows(sql):
                rows = await self.raw.fetch(statement.text, *args, timeout=_timeout())
                return PostgresCursor(list(rows), len(rows), None)
            status = await self.raw.execute(statement.text, *args, timeout=_timeout())
            return PostgresCursor([], status_count(status), None)
        except DRIVER_ERRORS as error:
            raise self._outage.error(error) from error

    async def _has_generated_id(self, table: str) -> bool:
        known = self._schema.generated_id.get(table)
        if known is None:
            known = await self.raw.fetchval(_HAS_GENERATED_ID, table) is not None
            self._schema.generated_id[table] = known
        return known

    async def _spelled(self, sql: str) -> str:
        """The statement as PostgreSQL reads it (only upserts differ; see spelling.py)."""
        spelled = self._schema.spelled.get(sql)
        if spelled is None:
            table = upsert_table(sql)
            spelled = sql
            if table is not None:
                columns = frozenset(
                    str(row[0]).lower() for row in await self.raw.fetch(_COLUMNS, table)
                )
                if not columns:  # no such table (yet): PostgreSQL says so
                    return sql
                spelled = postgres_spelling(sql, table, columns)
            self._schema.spelled[sql] = spelled
        return spelled


class PostgresDatabase:
    """An open PostgreSQL database: a pool of connections, one per transaction."""

    dialect = "postgres"

    def __init__(
        self, pool: asyncpg.Pool, url: str, *, acquire_timeout: float = ACQUIRE_TIMEOUT
    ) -> None:
        self.pool = pool
        self.url = url
        self.acquire_timeout = acquire_timeout
        self.outage = Outage()
        self.busy = Busy()
        self._in_use = 0  # pooled connections this process holds
        self._schema = SchemaFacts()

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        pool_size: int = POOL_SIZE,
        connect_timeout: float = CONNECT_TIMEOUT,
        acquire_timeout: float = ACQUIRE_TIMEOUT,
        command_timeout: float = COMMAND_TIMEOUT,
    ) -> PostgresDatabase:
        """Connect to the database at `url` (libpq style: postgresql://user:pass@host/db,
        or a Unix socket: postgresql://user@/db?host=/run/postgresql). Later, connections
        the server dropped are made again as statements need them (asyncpg's pool)."""
        try:
            # No floor of connections (min_size 0): asyncpg would restore it in the
            # background while the server is down, logging a traceback a second. The
            # first connection, made here, says whether the URL reaches a server.
            pool = await create_pool(
                url,
                pool_size=pool_size,
                connect_timeout=connect_timeout,
                command_timeout=command_timeout,
            )
            try:
                async with pool.acquire(timeout=acquire_timeout) as connection:
                    await connection.fetchval("SELECT 1")
            except BaseException:
                pool.terminate()
                raise
        except DRIVER_ERRORS as error:
            reason = str(error).strip() or type(error).__name__
            # Away (refused, no answer, no such host) or refused us (password, database).
            kind = DatabaseUnavailable if is_away(error) else StorageError
            raise kind(
                f"cannot connect to PostgreSQL at {where(url)}: {reason}. Check DATABASE_URL "
                "(host, port, database, user and password) and that the server is running "
                "and accepts connections from here."
            ) from error
        return cls(pool, url, acquire_timeout=acquire_timeout)

    async def close(self) -> None:
        """Wait for the transactions in progress, then close every connection."""
        await self.pool.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """`async with db.transaction() as conn:` - committed on exit, rolled back on error;
        a driver error comes out as StorageError."""
        try:
            async with (
                self._pooled() as raw,
                _dropped_when_away(raw),
                raw.transaction(),
            ):
                yield PostgresConnection(raw, self._schema, self.outage)
        except DRIVER_ERRORS as error:
            raise self.outage.error(error) from error
        self.outage.answered()

    @asynccontextmanager
    async def _pooled(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection, given back after. A wait that ran out is DatabaseBusy
        if every connection was in use here, or if the server answered other
        statements meanwhile (connections still being made, under load); otherwise
        the server is away (TimeoutError), as when a connection cannot be made."""
        began = self.outage.clock()
        try:
            raw = await self.pool.acquire(timeout=self.acquire_timeout)
        except TimeoutError as error:
            size = self.pool.get_max_size()
            if self._in_use >= size or self.outage.answered_at >= began:
                raise self.busy.error(size, self.acquire_timeout) from error
            raise
        self._in_use += 1
        try:
            yield raw
        finally:
            self._in_use -= 1
            await self.pool.release(raw)

    async def execute_batch(self, statements: Sequence[Statement]) -> None:
        """Every statement in order in one transaction (one pooled connection); a
        statement that changes another number of rows than it expects rolls the whole
        batch back with RowCountMismatch, as on SQLite."""
        async with self.transaction() as connection:
            for index, statement in enumerate(statements):
                if statement.many and statement.expect_rows is None:
                    await connection.executemany(statement.sql, statement.params)
                    continue
                rows = statement.params if statement.many else [statement.params]
                rowcount = 0
                for params in rows:
                    cursor = await connection.execute(statement.sql, params)
                    rowcount += cursor.rowcount
                if statement.expect_rows is not None and rowcount != statement.expect_rows:
                    raise RowCountMismatch(index, rowcount)

    async def execute_one(self, statement: Statement) -> None:
        """`statement` on a pooled connection outside any transaction: PostgreSQL runs
        it as one of its own, in one round trip (asyncpg's executemany too: its rows go
        in one pipeline, a single implicit transaction)."""
        assert statement.expect_rows is None, "execute_one checks no row count"
        try:
            async with self._pooled() as raw, _dropped_when_away(raw):
                connection = PostgresConnection(raw, self._schema, self.outage)
                if statement.many:
                    await connection.executemany(statement.sql, statement.params)
                else:
                    await connection.execute(statement.sql, statement.params)
        except DRIVER_ERRORS as error:
            raise self.outage.error(error) from error
        self.outage.answered()

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        try:
            async with self._pooled() as raw, _dropped_when_away(raw):
                record: Row | None = await raw.fetchrow(
                    translate(sql).text, *params, timeout=_timeout()
                )
        except DRIVER_ERRORS as error:
            raise self.outage.error(error) from error
        self.outage.answered()
        return record

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        try:
            async with self._pooled() as raw, _dropped_when_away(raw):
                rows = list(await raw.fetch(translate(sql).text, *params, timeout=_timeout()))
        except DRIVER_ERRORS as error:
            raise self.outage.error(error) from error
        self.outage.answered()
        return rows


async def create_pool(
    url: str,
    *,
    pool_size: int = POOL_SIZE,
    connect_timeout: float = CONNECT_TIMEOUT,
    command_timeout: float = COMMAND_TIMEOUT,
    reset: Callable[[asyncpg.Connection], Awaitable[None]] | None = None,
) -> asyncpg.Pool:
    """The bot's asyncpg pool for `url`. `reset`: what a connection given back needs
    besides asyncpg's own clean-up; None is the bot's, nothing (`_nothing_to_reset`).
    (benchmarks/bench_commits.py passes asyncpg's own `Connection.reset` to compare.)"""
    return await asyncpg.create_pool(
        url,
        min_size=0,
        max_size=pool_size,
        timeout=connect_timeout,
        command_timeout=command_timeout,
        reset=reset or _nothing_to_reset,
    )


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    """What a connection given back to the pool needs besides asyncpg's own clean-up
    (which rolls back a transaction left open, before this): nothing. The bot leaves no
    session state on a connection: no SET, LISTEN, cursor or session advisory lock (the
    migrations' lock is the transaction's). asyncpg's default, the query `SELECT
    pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL`, was one round trip
    more to the server for every transaction and every read."""


def _timeout() -> float | None:
    """A statement's timeout: the pool's COMMAND_TIMEOUT (None), or none to speak of."""
    return UNHURRIED_SECONDS if is_unhurried() else None


@asynccontextmanager
async def _dropped_when_away(raw: asyncpg.Connection) -> AsyncIterator[None]:
    """A connection whose server is away is closed at once, not given back: asyncpg
    would first cancel the statement that timed out (a new connection to a server that
    does not answer) and reset the connection, holding the click for seconds more."""
    try:
        yield
    except BaseException as error:
        if isinstance(error, DatabaseUnavailable) or is_away(error):
            # A connection asyncpg saw close has been handed back to the pool already
            # (its proxy detached): there is nothing left to drop.
            with contextlib.suppress(asyncpg.InterfaceError):
                raw.terminate()
        raise


def where(url: str) -> str:
    """The server and database a URL names, without its user or password."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    socket = [p.removeprefix("host=") for p in parts.query.split("&") if p.startswith("host=")]
    if socket:
        host = socket[0]
    return f"{host}{parts.path or '/'}"
