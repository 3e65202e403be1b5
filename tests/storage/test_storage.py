"""The database, on SQLite and PostgreSQL: migrations in order and once, transactions,
the session rows, and the statements' placeholders."""

from __future__ import annotations

import asyncio
import sqlite3
import sys

import asyncpg
import pytest

from bot.storage import StorageError, apply_migrations, open_database
from bot.storage.factory import dialect_of
from bot.storage.meta import get_meta, set_meta
from bot.storage.migrate import discover, migrations_dir, split_statements
from bot.storage.postgres.placeholders import numbered, status_count, translate
from bot.storage.postgres.spelling import postgres_spelling, upsert_table
from bot.storage.sessions import SessionRow, SessionStore, VersionConflict
from tests.databases import table_names


async def test_migrations_apply_once_in_order(database):
    rows = await database.fetchall("SELECT version, name FROM schema_migrations ORDER BY version")
    expected = discover(migrations_dir(database.dialect))
    assert [row["version"] for row in rows] == [m.version for m in expected]
    assert rows[0]["name"] == "sessions"
    assert await apply_migrations(database) == []


def test_both_dialects_have_the_same_migrations():
    def names(dialect: str) -> list[tuple[int, str]]:
        return [(m.version, m.name) for m in discover(migrations_dir(dialect))]

    assert names("postgres") == names("sqlite")


async def test_sqlite_is_in_wal_mode_in_a_new_folder(tmp_path):
    db = await open_database(f"sqlite:///{tmp_path}/sub/bot.db")
    mode = await db.fetchone("PRAGMA journal_mode")
    assert mode is not None and mode[0] == "wal"
    assert (tmp_path / "sub").is_dir()
    await db.close()


async def test_a_failing_migration_changes_nothing(tmp_path, database_url):
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_ok.sql").write_text("CREATE TABLE a (x INTEGER);")
    (folder / "0002_bad.sql").write_text("CREATE TABLE b (x INTEGER);\nNOT SQL;")
    database = await open_database(database_url)
    with pytest.raises(StorageError) as raised:
        await apply_migrations(database, folder)
    driver_error = sqlite3.Error if database.dialect == "sqlite" else asyncpg.PostgresError
    assert isinstance(raised.value.__cause__, driver_error)
    tables = await table_names(database)
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


async def test_transaction_rolls_back_on_error(database):
    with pytest.raises(RuntimeError):
        async with database.transaction() as connection:
            await connection.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
            raise RuntimeError
    assert await get_meta(database, "k") is None
    await set_meta(database, "k", "v1")
    await set_meta(database, "k", "v2")
    assert await get_meta(database, "k") == "v2"


async def test_session_rows_version_check_and_events(database):
    store = SessionStore(database)
    row = SessionRow(None, "pickomino", 1, 2, "lobby", 1, {"a": 1}, deadline=12.5)
    async with database.transaction() as connection:
        session_id = await store.insert(connection, row)
    other = SessionRow(None, "pickomino", 1, 3, "lobby", 1, {})
    async with database.transaction() as connection:
        assert await store.insert(connection, other) == session_id + 1
    live = await store.live_in_channel(2)
    assert live is not None and live.id == session_id and live.deadline == 12.5
    row.version, row.status = 2, "playing"
    async with database.transaction() as connection:
        await store.update(connection, row, read_version=1)
        await store.append_events(connection, session_id, 2, ['{"type":"x"}', '{"type":"y"}'], 1)
        texts = await store.event_texts_in(connection, session_id)
        assert texts == ['{"type":"x"}', '{"type":"y"}']
    with pytest.raises(VersionConflict):
        async with database.transaction() as connection:
            await store.update(connection, row, read_version=1)
    assert [e["type"] for e in await store.events(session_id)] == ["x", "y"]
    duplicate = SessionRow(None, "pickomino", 1, 2, "lobby", 1, {})
    with pytest.raises(StorageError, match=r"(?i)unique"):  # one live session per channel
        async with database.transaction() as connection:
            await store.insert(connection, duplicate)


async def test_a_batch_commit_is_all_or_nothing(database):
    store = SessionStore(database)
    row = SessionRow(None, "pickomino", 1, 2, "playing", 1, {"a": 1}, message_id=5)
    async with database.transaction() as connection:
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

    # Several events at once, numbered on; a late mark riding along does not move back.
    await store.commit(row, 2, 2, ['{"type":"y"}', '{"type":"z"}'], {session_id: 1})
    stored = await store.get(session_id)
    assert stored is not None and (stored.version, stored.shown_version) == (3, 2)
    assert [e["type"] for e in await store.events(session_id)] == ["x", "y", "z"]
    assert await store.last_seq(session_id) == 3
    # No events and no mark: the row alone.
    row.version, row.status = 4, "over"
    await store.commit(row, 3, 4, [], {})
    stored = await store.get(session_id)
    assert stored is not None and (stored.version, stored.status) == (4, "over")


async def test_a_commit_with_another_sessions_mark_writes_both(database):
    """(On PostgreSQL the bot's own commits carry their own mark only; a batch that
    carries others' is written as a transaction of statements, all or nothing.)"""
    store = SessionStore(database)
    rows = [SessionRow(None, "pickomino", 1, channel, "playing", 1, {}) for channel in (2, 3)]
    async with database.transaction() as connection:
        first, second = [await store.insert(connection, row) for row in rows]

    async def marked() -> dict[int | None, int]:
        stored = [await store.get(first), await store.get(second)]
        return {row.id: row.shown_version for row in stored if row}

    rows[0].version = 2
    await store.commit(rows[0], 1, 1, ['{"type":"x"}'], {first: 1, second: 1})
    assert await marked() == {first: 1, second: 1}
    with pytest.raises(VersionConflict):  # stale: neither mark is written
        await store.commit(rows[0], 1, 2, ['{"type":"y"}'], {first: 2, second: 2})
    assert await marked() == {first: 1, second: 1}


def test_database_urls_name_their_dialect():
    assert dialect_of("sqlite:///data/pickomino.db") == "sqlite"
    assert dialect_of("postgresql://bot:secret@db/pickomino") == "postgres"
    assert dialect_of("postgresql://bot@/pickomino?host=/run/postgresql") == "postgres"
    with pytest.raises(ValueError, match="postgresql://"):
        dialect_of("mysql://db/pickomino")


def test_placeholders_are_numbered_outside_quotes_and_comments():
    sql = "SELECT '?', \"a?\" FROM t WHERE x = ? AND y = ? -- why?\n AND z = ?"
    assert numbered(sql) == "SELECT '?', \"a?\" FROM t WHERE x = $1 AND y = $2 -- why?\n AND z = $3"
    assert status_count("UPDATE 1") == 1
    assert status_count("INSERT 0 2") == 2
    assert status_count("CREATE TABLE") == -1


async def test_an_unreachable_postgres_is_a_storage_error(tmp_path):
    with pytest.raises(StorageError, match="cannot connect"):
        await open_database(f"postgresql://nobody@/none?host={tmp_path}")


def test_named_placeholders_get_one_number_per_name():
    statement = translate("SELECT x::text FROM t WHERE a = :a AND b = :b OR a > :a")
    assert statement.text == "SELECT x::text FROM t WHERE a = $1 AND b = $2 OR a > $1"
    assert statement.arguments({"b": 2, "a": 1}) == (1, 2)
    with pytest.raises(ValueError, match="mixes"):
        translate("SELECT ? + :a")


async def test_named_parameters_on_both_dialects(database):
    async with database.transaction() as connection:
        await connection.execute(
            "INSERT INTO meta (key, value) VALUES (:key, :value)", {"key": "k", "value": "v"}
        )
        await connection.executemany(
            "INSERT INTO meta (key, value) VALUES (:key, :value)",
            [{"key": "a", "value": "1"}, {"key": "b", "value": "2"}],
        )
    rows = await database.fetchall("SELECT key, value FROM meta ORDER BY key")
    assert [(row[0], row[1]) for row in rows] == [("a", "1"), ("b", "2"), ("k", "v")]


async def test_a_sqlite_file_in_use_by_another_bot_process_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path}/bot.db"
    holder = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        HOLD_DATABASE,
        url,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert await holder.stdout.readline() == b"open\n"
    with pytest.raises(StorageError, match=r"in use by another bot process.*PostgreSQL"):
        await open_database(url, exclusive=True)
    holder.kill()  # as by SIGKILL: the kernel lets go of the lock
    await holder.wait()
    again = await open_database(url, exclusive=True)
    await again.close()


HOLD_DATABASE = """
import asyncio, sys
from bot.storage import open_database

async def hold():
    db = await open_database(sys.argv[1], exclusive=True)
    print("open", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

asyncio.run(hold())
"""


def test_sqlite_upserts_are_respelled_for_postgresql():
    sql = (
        "INSERT INTO totals (k, games, best) VALUES (?, ?, ?) ON CONFLICT (k) DO UPDATE SET"
        " games = games + excluded.games, best = max(best, excluded.best, 'games'),"
        " streak = CASE WHEN excluded.games = 0 THEN streak ELSE min(streak, games) END"
    )
    spelled = postgres_spelling(sql, "totals", frozenset({"k", "games", "best", "streak"}))
    assert spelled == (
        "INSERT INTO totals (k, games, best) VALUES (?, ?, ?) ON CONFLICT (k) DO UPDATE SET"
        " games = totals.games + excluded.games,"
        " best = GREATEST(totals.best, excluded.best, 'games'),"
        " streak = CASE WHEN excluded.games = 0 THEN totals.streak"
        " ELSE LEAST(totals.streak, totals.games) END"
    )
    assert upsert_table(sql) == "totals"
    assert upsert_table("INSERT INTO t (a) VALUES (?) ON CONFLICT (a) DO NOTHING") is None


async def test_an_upsert_that_adds_to_the_stored_row_on_both_dialects(database):
    upsert = (
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"
        " ON CONFLICT (version) DO UPDATE SET applied_at = max(applied_at, excluded.applied_at)"
        " + applied_at"
    )
    async with database.transaction() as connection:
        for applied_at in (5, 3):
            await connection.execute(upsert, (999, "x", applied_at))
    row = await database.fetchone("SELECT applied_at FROM schema_migrations WHERE version = 999")
    assert row is not None and row[0] == 10
