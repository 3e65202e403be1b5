"""The database: migrations in order and once, transactions, the session rows."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import Database, StorageError, apply_migrations
from bot.storage.meta import get_meta, set_meta
from bot.storage.migrate import discover, split_statements
from bot.storage.sessions import SessionRow, SessionStore, VersionConflict


@pytest.fixture
async def db(tmp_path):
    database = await Database.open(tmp_path / "sub" / "bot.db")
    await apply_migrations(database)
    yield database
    await database.close()


async def test_migrations_apply_once_in_order_and_wal_is_on(tmp_path, db):
    rows = await db.fetchall("SELECT version, name FROM schema_migrations ORDER BY version")
    assert [row["version"] for row in rows] == [m.version for m in discover()]
    assert rows[0]["name"] == "sessions"
    assert await apply_migrations(db) == []
    mode = await db.fetchone("PRAGMA journal_mode")
    assert mode is not None and mode[0] == "wal"
    assert (tmp_path / "sub").is_dir()


async def test_a_failing_migration_changes_nothing(tmp_path):
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_ok.sql").write_text("CREATE TABLE a (x INTEGER);")
    (folder / "0002_bad.sql").write_text("CREATE TABLE b (x INTEGER);\nNOT SQL;")
    database = await Database.open(tmp_path / "bot.db")
    with pytest.raises(StorageError) as raised:
        await apply_migrations(database, folder)
    assert isinstance(raised.value.__cause__, sqlite3.Error)
    tables = {row[0] for row in await database.fetchall("SELECT name FROM sqlite_master")}
    assert "a" in tables and "b" not in tables
    versions = await database.fetchall("SELECT version FROM schema_migrations")
    assert [row[0] for row in versions] == [1]
    await database.close()


def test_migration_names_and_statements(tmp_path):
    (tmp_path / "0001_a.sql").write_text("")
    (tmp_path / "0001_b.sql").write_text("")
    with pytest.raises(ValueError, match="share"):
        discover(tmp_path)
    script = "-- comment\nCREATE TABLE t (x TEXT DEFAULT 'a;b');\n\nINSERT INTO t VALUES (1);\n"
    assert split_statements(script) == [
        "CREATE TABLE t (x TEXT DEFAULT 'a;b');",
        "INSERT INTO t VALUES (1);",
    ]


async def test_transaction_rolls_back_on_error(db):
    with pytest.raises(RuntimeError):
        async with db.transaction() as connection:
            await connection.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
            raise RuntimeError
    assert await get_meta(db, "k") is None
    await set_meta(db, "k", "v1")
    await set_meta(db, "k", "v2")
    assert await get_meta(db, "k") == "v2"


async def test_session_rows_version_check_and_events(db):
    store = SessionStore(db)
    row = SessionRow(None, "pickomino", 1, 2, "lobby", 1, {"a": 1})
    async with db.transaction() as connection:
        session_id = await store.insert(connection, row)
    assert (await store.live_in_channel(2)).id == session_id
    row.version, row.status = 2, "playing"
    async with db.transaction() as connection:
        await store.update(connection, row, read_version=1)
        await store.append_events(connection, session_id, 2, ['{"type":"x"}', '{"type":"y"}'], 1)
    with pytest.raises(VersionConflict):
        async with db.transaction() as connection:
            await store.update(connection, row, read_version=1)
    assert [e["type"] for e in await store.events(session_id)] == ["x", "y"]
    duplicate = SessionRow(None, "pickomino", 1, 2, "lobby", 1, {})
    with pytest.raises(StorageError, match="UNIQUE"):  # one live session per channel
        async with db.transaction() as connection:
            await store.insert(connection, duplicate)


async def test_a_batch_commit_is_all_or_nothing(db):
    store = SessionStore(db)
    row = SessionRow(None, "pickomino", 1, 2, "playing", 1, {"a": 1}, message_id=5)
    async with db.transaction() as connection:
        session_id = await store.insert(connection, row)
    row.version = 2
    await store.commit(row, 1, 1, ['{"type":"x"}'], {session_id: 1})
    assert await store.last_seq(session_id) == 1
    stored = await store.get(session_id)
    assert stored is not None and (stored.version, stored.shown_version) == (2, 1)
    # Behind: the message shows version 1 of 2.
    assert [r.id for r in await store.behind()] == [session_id]

    # A stale read version: neither the row, nor the events, nor the marks are written.
    row.version = 3
    with pytest.raises(VersionConflict):
        await store.commit(row, 1, 2, ['{"type":"y"}'], {session_id: 2})
    stored = await store.get(session_id)
    assert stored is not None and (stored.version, stored.shown_version) == (2, 1)
    assert [e["type"] for e in await store.events(session_id)] == ["x"]

    await store.mark_shown({session_id: 2})
    await store.mark_shown({session_id: 1})  # a late mark never moves it back
    stored = await store.get(session_id)
    assert stored is not None and stored.shown_version == 2
    assert await store.behind() == []
