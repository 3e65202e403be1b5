"""PostgreSQL behind the storage protocols, through asyncpg (the optional `postgres` extra)."""

from bot.storage.postgres.database import PostgresDatabase

__all__ = ["PostgresDatabase"]
