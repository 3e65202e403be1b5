"""The bot's SQLite connections, their pragmas, and a transaction helper.

An aiosqlite connection serves reads and `transaction()`: aiosqlite runs it on a thread
of its own, so those statements never block the event loop. A click's commit
(`execute_batch`) is different: its few statements cost SQLite tens of microseconds,
and the trip to that thread and back (a queue, a wake-up, the result handed back through
the loop's self-pipe, two threads taking turns at the GIL) cost several times more, so a
file database runs batches on a second, plain connection on the loop's own thread.

- One lock (`_write_lock`) orders every write transaction of both connections, so they
  never wait for each other's SQLite write lock. A batch that still finds the database
  locked (another program writing the file) is not waited for on the loop: it goes to
  the aiosqlite thread, which waits up to the busy timeout there.
- In WAL mode a commit past the checkpoint threshold copies the log into the database
  and syncs both files, which can take milliseconds. So the loop's connection never
  checkpoints (`wal_autocheckpoint=0`); every CHECKPOINT_EVERY batches a passive
  checkpoint runs on the aiosqlite thread, beside further commits.
- An in-memory database is one per connection, so it keeps the aiosqlite path.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.protocols import Connection, Row, RowCountMismatch, Statement, StorageError

MEMORY = ":memory:"
CHECKPOINT_EVERY = 250  # batches between checkpoints: about SQLite's own 1,000 WAL pages
BUSY_TIMEOUT_MS = 5000
log = logging.getLogger(__name__)

SHARED_SQLITE = (
    "{path} is in use by another bot process, and a SQLite file serves one process: "
    "stop the other one, or run several on PostgreSQL (DATABASE_URL=postgresql://...)"
)


class SqliteDatabase:
    """An open SQLite database in WAL mode, foreign keys on."""

    dialect = "sqlite"

    def __init__(
        self,
        connection: aiosqlite.Connection,
        path: str,
        process_lock: int | None = None,
        loop_writer: sqlite3.Connection | None = None,
    ) -> None:
        self.connection = connection
        self.path = path
        self._write_lock = asyncio.Lock()
        self._process_lock = process_lock  # the descriptor holding `<file>.lock`, if taken
        self._loop_writer = loop_writer  # batches on the loop's thread (see the module doc)
        self._batches_since_checkpoint = 0
        self._checkpoint: asyncio.Task[None] | None = None

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
        await connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        loop_writer = None if location == MEMORY else _open_loop_writer(location)
        return cls(connection, location, process_lock, loop_writer)

    async def close(self) -> None:
        """Wait for the transaction in progress, then close the connections."""
        async with self._write_lock:
            if self._checkpoint is not None:
                await self._checkpoint
            if self._loop_writer is not None:
                self._loop_writer.close()
                self._loop_writer = None
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
        """One transaction in one call: on the loop's thread when it can (see the module
        doc), else on aiosqlite's, never statement by statement."""
        async with self._write_lock:
            try:
                if self._loop_writer is not None and _run_batch_unless_busy(
                    self._loop_writer, statements
                ):
                    self._checkpoint_now_and_then()
                    return
                # aiosqlite's own way to run a function on its thread (every one of its
                # methods goes through it); there is no public name for it.
                await self.connection._execute(_run_batch, self.connection._conn, statements)
            except sqlite3.Error as error:
                raise StorageError(str(error)) from error

    async def execute_one(self, statement: Statement) -> None:
        """A batch of one: SQLite's transaction costs no trip of its own."""
        assert statement.expect_rows is None, "execute_one checks no row count"
        await self.execute_batch([statement])

    def _checkpoint_now_and_then(self) -> None:
        self._batches_since_checkpoint += 1
        if self._batches_since_checkpoint < CHECKPOINT_EVERY:
            return
        if self._checkpoint is not None and not self._checkpoint.done():
            return
        self._batches_since_checkpoint = 0
        self._checkpoint = asyncio.create_task(self._passive_checkpoint(), name="wal-checkpoint")

    async def _passive_checkpoint(self) -> None:
        """Copy the log into the database on aiosqlite's thread; commits go on meanwhile
        (a passive checkpoint takes no write lock). A failure is retried next time."""
        try:
            await self.connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as error:
            log.warning("WAL checkpoint failed (retried later): %s", error)

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
    _run_begun_batch(connection, statements)


def _run_begun_batch(connection: sqlite3.Connection, statements: Sequence[Statement]) -> None:
    """Every statement, then COMMIT (ROLLBACK on any error), in a begun transaction."""
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


def _open_loop_writer(path: str) -> sqlite3.Connection:
    """The plain connection batches run on, on the loop's thread: it waits for no lock
    (busy_timeout=0: `_run_batch_unless_busy` hands a locked batch to the other thread)
    and never checkpoints."""
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA synchronous=NORMAL")  # per connection; WAL is the file's
    writer.execute("PRAGMA foreign_keys=ON")
    writer.execute("PRAGMA busy_timeout=0")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    return writer


def _run_batch_unless_busy(connection: sqlite3.Connection, statements: Sequence[Statement]) -> bool:
    """`_run_batch`, or False without a change if the database is locked by another
    connection (the BEGIN is refused before any statement runs)."""
    try:
        connection.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        if error.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return False
        raise
    _run_begun_batch(connection, statements)
    return True


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
