"""The one aiosqlite connection, its pragmas, and a transaction helper.

One connection serves the whole bot. aiosqlite runs it on a thread of its own, so
statements never block the event loop; a lock makes each transaction whole, because
statements from two coroutines on one connection would otherwise interleave.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.protocols import Connection, Row, StorageError

MEMORY = ":memory:"


class SqliteDatabase:
    """An open SQLite database in WAL mode, foreign keys on."""

    dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self.connection = connection
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        """Open (and create, with its directory) the database file at `path`."""
        location = str(path)
        if location != MEMORY:
            Path(location).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves in transaction().
        connection = await aiosqlite.connect(location, isolation_level=None)
        connection.row_factory = sqlite3.Row
        await connection.execute("PRAGMA journal_mode=WAL")
        # WAL with synchronous=NORMAL: a commit survives a crash of the process (kill -9);
        # only a power loss can drop the last commits.
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA busy_timeout=5000")
        return cls(connection, location)

    async def close(self) -> None:
        """Wait for the transaction in progress, then close the connection."""
        async with self._write_lock:
            await self.connection.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """`async with db.transaction() as conn:` - committed on exit, rolled back on error;
        a driver error comes out as StorageError."""
        async with self._write_lock:
            connection = self.connection
            try:
                await connection.execute("BEGIN IMMEDIATE")
                try:
                    yield connection
                except BaseException:
                    await connection.execute("ROLLBACK")
                    raise
                await connection.execute("COMMIT")
            except sqlite3.Error as error:
                raise StorageError(str(error)) from error

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        async with self.connection.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        async with self.connection.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())
