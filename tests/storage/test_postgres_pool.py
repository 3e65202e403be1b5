"""The PostgreSQL pool's connections as the next transaction finds them: clean where
it matters, and given back without a round trip to the server."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.postgres.database import PostgresDatabase
from bot.storage.protocols import Statement, StorageError


async def test_a_connection_goes_back_to_the_pool_without_a_reset_query(
    postgres_url: str,
) -> None:
    """asyncpg's default reset (pg_advisory_unlock_all, CLOSE ALL, UNLISTEN, RESET ALL)
    was one more round trip per transaction and per read; the bot leaves none of that
    state on a connection."""
    db = await PostgresDatabase.open(postgres_url, pool_size=1)
    try:
        queries: list[str] = []
        raw = await db.pool.acquire()
        raw.add_query_logger(lambda record: queries.append(record.query))
        await db.pool.release(raw)
        await db.fetchone("SELECT 1")
        async with db.transaction() as connection:
            await connection.execute("SELECT 2")
        await asyncio.sleep(0)  # asyncpg calls its query loggers soon, not at once
        assert any("SELECT 1" in query for query in queries), queries
        assert any("SELECT 2" in query for query in queries), queries
        assert not any("RESET ALL" in query or "UNLISTEN" in query for query in queries)
    finally:
        await db.close()


async def test_a_transaction_left_open_is_rolled_back_before_the_next_user(
    postgres_url: str,
) -> None:
    """A task cancelled inside a transaction it opened by hand: asyncpg's own clean-up
    still rolls it back when the connection goes back to the pool."""
    db = await PostgresDatabase.open(postgres_url, pool_size=1)
    try:
        raw = await db.pool.acquire()
        await raw.execute("BEGIN")
        await raw.execute("CREATE TABLE left_open (n int)")
        await db.pool.release(raw)
        row = await db.fetchone("SELECT to_regclass('left_open') IS NULL")
        assert row is not None and row[0] is True
    finally:
        await db.close()


async def test_a_statement_alone_is_one_round_trip_and_a_batch_is_a_transaction(
    postgres_url: str,
) -> None:
    """execute_one sends its statement alone (PostgreSQL makes it a transaction of its
    own); a batch, even of one statement, is wrapped in BEGIN and COMMIT: two round
    trips more, the price of a promise that a failed batch did not happen."""
    db = await PostgresDatabase.open(postgres_url, pool_size=1)
    try:
        await db.execute_one(Statement("CREATE TABLE alone (n int PRIMARY KEY)"))
        # The first INSERT of a table learns whether it has generated ids, once.
        await db.execute_one(Statement("INSERT INTO alone (n) VALUES (?)", (0,)))
        raw = await db.pool.acquire()
        queries: list[str] = []
        raw.add_query_logger(lambda record: queries.append(record.query.strip().upper()))
        await db.pool.release(raw)

        await db.execute_one(Statement("INSERT INTO alone (n) VALUES (?)", (1,)))
        await asyncio.sleep(0)
        assert queries == ["INSERT INTO ALONE (N) VALUES ($1)"]

        queries.clear()
        await db.execute_batch([Statement("INSERT INTO alone (n) VALUES (?)", (2,))])
        await asyncio.sleep(0)
        assert queries == ["BEGIN;", "INSERT INTO ALONE (N) VALUES ($1)", "COMMIT;"]
    finally:
        await db.close()


async def test_a_statement_alone_of_many_rows_is_all_or_nothing(postgres_url: str) -> None:
    """executemany outside a transaction is still one: a row that fails takes back the
    rows before it, and the database's refusal comes out as StorageError."""
    db = await PostgresDatabase.open(postgres_url, pool_size=1)
    try:
        await db.execute_one(Statement("CREATE TABLE many_alone (n int PRIMARY KEY)"))
        await db.execute_one(Statement("INSERT INTO many_alone (n) VALUES (?)", (3,)))
        rows = [(1,), (2,), (3,)]  # 3 is there already
        with pytest.raises(StorageError):
            await db.execute_one(
                Statement("INSERT INTO many_alone (n) VALUES (?)", rows, many=True)
            )
        left = await db.fetchall("SELECT n FROM many_alone ORDER BY n")
        assert [row["n"] for row in left] == [3]
        await db.execute_one(
            Statement("INSERT INTO many_alone (n) VALUES (?)", [(1,), (2,)], many=True)
        )
        left = await db.fetchall("SELECT n FROM many_alone ORDER BY n")
        assert [row["n"] for row in left] == [1, 2, 3]
    finally:
        await db.close()
