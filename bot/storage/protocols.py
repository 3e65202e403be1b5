"""What the rest of the bot may assume of storage: these protocols, never a driver's types.

SQLite (aiosqlite, bot/storage/database.py) and PostgreSQL (asyncpg, bot/storage/postgres)
implement them. Nothing outside bot/storage imports sqlite3, aiosqlite or asyncpg; SQL is
written once, with `?` placeholders, in what both dialects understand.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol


class StorageError(Exception):
    """The database refused or failed a statement; the transaction was rolled back."""


class DatabaseUnavailable(StorageError):
    """The database could not be reached: the connection was refused or dropped, the
    server is starting up or shutting down, or it did not answer within the driver's
    timeout. A statement refused for what it says (a constraint, bad SQL) is a plain
    StorageError; this one says nothing of the statement, only that the database is away.
    A commit cut off this way was rolled back, unless the server had it already: the
    version check tells at the next commit."""

    state = "unreachable"  # for log lines: "database unreachable (why)"


class DatabaseBusy(DatabaseUnavailable):
    """Every pooled connection was in use, by this process's own transactions, for the
    whole wait for one: the server answers, the bot is busy. Nothing ran, so the move is
    refused as when the database is away, but it is no outage (no outage warning, and
    /healthz stays healthy: restarting a busy bot would not make it less busy)."""

    state = "busy"


_UNHURRIED: ContextVar[bool] = ContextVar("unhurried", default=False)


@contextmanager
def unhurried() -> Iterator[None]:
    """Statements made in this context may take as long as they need: migrations, and
    waiting for another process's. Elsewhere a driver may give up on a server that does
    not answer within a click's time (PostgreSQL's COMMAND_TIMEOUT)."""
    token = _UNHURRIED.set(True)
    try:
        yield
    finally:
        _UNHURRIED.reset(token)


def is_unhurried() -> bool:
    return _UNHURRIED.get()


class RowCountMismatch(StorageError):
    """A statement of a batch changed another number of rows than it required; the
    whole batch was rolled back. `index` is the statement's place in the batch."""

    def __init__(self, index: int, rowcount: int) -> None:
        super().__init__(f"statement {index} changed {rowcount} rows")
        self.index = index
        self.rowcount = rowcount


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a batch (Database.execute_batch)."""

    sql: str
    params: Sequence[Any] = ()
    many: bool = False  # params is a sequence of parameter rows (executemany)
    expect_rows: int | None = None  # the rows it must change, else RowCountMismatch


class Row(Protocol):
    """A result row, by column name or position."""

    def __getitem__(self, key: str | int, /) -> Any: ...


class StatementCursor(Protocol):
    """What a statement returns: counts, the new row's id, and its rows."""

    @property
    def rowcount(self) -> int: ...

    @property
    def lastrowid(self) -> int | None: ...

    async def fetchone(self) -> Row | None: ...

    async def fetchall(self) -> Iterable[Row]: ...


class Connection(Protocol):
    """A transaction's connection: statements with `?` placeholders.

    `execute` gives a Cursor both ways: `cursor = await connection.execute(...)` and
    `async with connection.execute(...) as cursor:` (typed Any: drivers spell that
    awaitable context manager each their own way)."""

    def execute(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ..., /) -> Any: ...

    async def executemany(
        self, sql: str, parameters: Iterable[Sequence[Any] | Mapping[str, Any]], /
    ) -> Any: ...


class Database(Protocol):
    """The open database: transactions, and reads outside them."""

    # "sqlite" or "postgres": which migrations apply, and whether commits lock rows.
    dialect: str

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """`async with db.transaction() as connection:` - committed on exit, rolled back
        (and a driver error raised as StorageError) on error."""
        ...

    async def execute_batch(self, statements: Sequence[Statement]) -> None:
        """Run `statements` as one transaction, in one trip to the database thread (the
        hot path of a click's commit on SQLite): all of them or, on an error or a
        RowCountMismatch, none."""
        ...

    async def execute_one(self, statement: Statement) -> None:
        """Run `statement` (no `expect_rows`) as a transaction of its own, in one trip to
        the database: on PostgreSQL without the BEGIN and COMMIT of a batch, two round
        trips fewer. The price: a statement sent just before a failure may still take
        effect (a server that hangs runs it when it wakes) after its caller was told it
        failed. So only for records that may land late (pings to tidy up, marks that
        only move forward, a review stored once), never for what a player is told."""
        ...

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...

    async def close(self) -> None: ...


__all__ = [
    "Connection",
    "Database",
    "DatabaseBusy",
    "DatabaseUnavailable",
    "Row",
    "RowCountMismatch",
    "Statement",
    "StatementCursor",
    "StorageError",
    "is_unhurried",
    "unhurried",
]
