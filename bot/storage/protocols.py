"""What the rest of the bot may assume of storage: these protocols, never a driver's types.

SQLite (aiosqlite, bot/storage/database.py) and PostgreSQL (asyncpg, bot/storage/postgres)
implement them. Nothing outside bot/storage imports sqlite3, aiosqlite or asyncpg; SQL is
written once, with `?` placeholders, in what both dialects understand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol


class StorageError(Exception):
    """The database refused or failed a statement; the transaction was rolled back."""


class Row(Protocol):
    """A result row, by column name or position."""

    def __getitem__(self, key: str | int, /) -> Any: ...


class Cursor(Protocol):
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

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...

    async def close(self) -> None: ...


__all__ = [
    "Connection",
    "Cursor",
    "Database",
    "Row",
    "StorageError",
]
