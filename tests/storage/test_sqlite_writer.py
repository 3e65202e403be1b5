"""SQLite's batches on the loop's own thread: never waiting there for a lock another
program holds, and the write-ahead log still copied into the database."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import database as sqlite_database
from bot.storage import open_database
from bot.storage.protocols import Statement

BLOB = b"x" * 20_000


async def _with_table(path: Path):
    db = await open_database(f"sqlite:///{path}")
    async with db.transaction() as connection:
        await connection.execute("CREATE TABLE blobs (data BLOB)")
    return db


async def test_a_batch_waits_for_another_programs_write_off_the_loop(tmp_path) -> None:
    db = await _with_table(tmp_path / "bot.db")
    other = sqlite3.connect(tmp_path / "bot.db", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # say, an admin's sqlite3 shell mid-transaction
        batch = asyncio.create_task(
            db.execute_batch([Statement("INSERT INTO blobs VALUES (?)", (b"kept",))])
        )
        ticks = 0
        for _ in range(10):  # the loop goes on while the batch waits
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 10 and not batch.done()
        other.execute("COMMIT")
        await asyncio.wait_for(batch, 5)
        row = await db.fetchone("SELECT data FROM blobs")
        assert row is not None and row["data"] == b"kept"
    finally:
        other.close()
        await db.close()


@pytest.mark.parametrize("every", [10, 10**9])
async def test_the_log_is_checkpointed_every_so_many_batches(tmp_path, monkeypatch, every) -> None:
    monkeypatch.setattr(sqlite_database, "CHECKPOINT_EVERY", every)
    path = tmp_path / "bot.db"
    db = await _with_table(path)
    try:
        for _ in range(35):
            await db.execute_batch([Statement("INSERT INTO blobs VALUES (?)", (BLOB,))])
        await asyncio.sleep(0.2)  # the checkpoint runs beside the commits
        copied = path.stat().st_size  # pages reach the database file only by a checkpoint
        rows = await db.fetchone("SELECT COUNT(*) AS n FROM blobs")
        assert rows is not None and rows["n"] == 35
    finally:
        await db.close()
    if every == 10:
        assert copied > 30 * len(BLOB)
    else:
        assert copied < 5 * len(BLOB)  # the loop's connection never checkpoints by itself
