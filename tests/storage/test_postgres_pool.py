"""The PostgreSQL pool's connections as the next transaction finds them: clean where
it matters, and given back without a round trip to the server."""

from __future__ import annotations

import asyncio

from bot.storage.postgres.database import PostgresDatabase


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
