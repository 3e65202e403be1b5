"""The one aiosqlite connection, its pragmas, and a transaction helper.

One connection serves the whole bot. aiosqlite runs it on a thread of its own, so
statements never block the event loop; a lock makes each transaction whole, because
statements from two coroutines on one connection would otherwise interleave.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.protocols import Connection, Row, RowCountMismatch, Statement, StorageError

MEMORY = ":memory:"


class SqliteDatabase:
    """An open SQLite database in WAL mode, foreign keys on."""

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

    async def execute_batch(self, statements: Sequence[Statement]) -> None:
        """One transaction in one call on aiosqlite's thread: a thread round trip costs
        far more than the statements of a click's commit themselves."""
        async with self._write_lock:
            try:
                # aiosqlite's own way to run a function on its thread (every one of its
                # methods goes through it); there is no public name for it.
                await self.connection._execute(_run_batch, self.connection._conn, statements)
            except sqlite3.Error as error:
                raise StorageError(str(error)) from error

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        async with self.connection.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        async with self.connection.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())


def _run_batch(connection: sqlite3.Connection, statements: Sequence[Statement]) -> None:
    """On the database thread: BEGIN, every statement, COMMIT (ROLLBACK on any error)."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        for index, statement in enumerate(statements):
            if statement.many:
                cursor = connection.executemany(statement.sql, statement.params)
            else:
                cursor = connection.execute(statement.sql, statement.params)
            if statement.expect_rows is not None and cursor.rowcount != statement.expect_rows:
                raise RowCountMismatch(index, cursor.rowcount)
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
