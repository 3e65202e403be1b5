"""The one aiosqlite connection, its pragmas, and a transaction helper.

One connection serves the whole bot. aiosqlite runs it on a thread of its own, so
statements never block the event loop; a lock makes each transaction whole, because
statements from two coroutines on one connection would otherwise interleave.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.protocols import Connection, Row, RowCountMismatch, Statement, StorageError

MEMORY = ":memory:"
SHARED_SQLITE = (
    "{path} is in use by another bot process, and a SQLite file serves one process: "
    "stop the other one, or run several on PostgreSQL (DATABASE_URL=postgresql://...)"
)


class SqliteDatabase:
    """An open SQLite database in WAL mode, foreign keys on."""

    dialect = "sqlite"

    def __init__(
        self, connection: aiosqlite.Connection, path: str, process_lock: int | None = None
    ) -> None:
        self.connection = connection
        self.path = path
        self._write_lock = asyncio.Lock()
        self._process_lock = process_lock  # the descriptor holding `<file>.lock`, if taken

    @classmethod
    async def open(cls, path: str | Path, *, exclusive: bool = False) -> SqliteDatabase:
        """Open (and create, with its directory) the database file at `path`; `exclusive`
        refuses (StorageError) a file another process holds open exclusively."""
        location = str(path)
        process_lock = None
        if location != MEMORY:
            Path(location).parent.mkdir(parents=True, exist_ok=True)
            if exclusive:
                process_lock = _lock_for_this_process(location)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves in transaction().
        connection = await aiosqlite.connect(location, isolation_level=None)
        connection.row_factory = sqlite3.Row
        await connection.execute("PRAGMA journal_mode=WAL")
        # WAL with synchronous=NORMAL: a commit survives a crash of the process (kill -9);
        # only a power loss can drop the last commits.
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA busy_timeout=5000")
        return cls(connection, location, process_lock)

    async def close(self) -> None:
        """Wait for the transaction in progress, then close the connection."""
        async with self._write_lock:
            await self.connection.close()
        if self._process_lock is not None:
            os.close(self._process_lock)  # the lock goes with the descriptor
            self._process_lock = None

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
        # One trip to the database thread (a cursor's execute, fetch and close are three).
        row: Row | None = await self.connection._execute(
            _fetch_one, self.connection._conn, sql, tuple(params)
        )
        return row

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return list(await self.connection.execute_fetchall(sql, tuple(params)))


def _fetch_one(connection: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> Any:
    """On the database thread: the first row of a query, or None."""
    cursor = connection.execute(sql, params)
    try:
        return cursor.fetchone()
    finally:
        cursor.close()


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


def _lock_for_this_process(path: str) -> int:
    """Hold `<path>.lock` for as long as this process has the database open.

    Two bot processes on one SQLite file would each keep their own copy of the live
    games and overwrite each other's turns; the kernel drops the lock when the process
    dies, even by SIGKILL, so a restart is never refused by a stale lock. A POSIX record
    lock belongs to the process, so one process opening the file again is not refused."""
    descriptor = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.lockf(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(descriptor)
        raise StorageError(SHARED_SQLITE.format(path=path)) from error
    return descriptor
