"""DATABASE_URL to an open database: `sqlite:///path` (the default) or a PostgreSQL URL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot.storage.database import SqliteDatabase
from bot.storage.protocols import Database, StorageError

if TYPE_CHECKING:
    from bot.storage.postgres.listening import Listening

SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def dialect_of(url: str) -> str:
    """ "sqlite" or "postgres" for a DATABASE_URL; ValueError for anything else."""
    if url.startswith(SQLITE_PREFIX):
        return "sqlite"
    if url.startswith(POSTGRES_SCHEMES):
        return "postgres"
    raise ValueError(
        "must be sqlite:///path (e.g. sqlite:///data/pickomino.db) "
        "or postgresql://user:password@host/database"
    )


def sqlite_path(url: str) -> Path:
    """The SQLite file: `sqlite:///data/x.db` is relative, `sqlite:////srv/x.db` absolute."""
    return Path(url.removeprefix(SQLITE_PREFIX))


async def open_database(url: str, *, exclusive: bool = False) -> Database:
    """Open the database a DATABASE_URL names (migrations are the caller's next step).

    `exclusive`: the bot's own process, which refuses a SQLite file another bot process
    has open (PostgreSQL is made to be shared)."""
    if dialect_of(url) == "sqlite":
        return await SqliteDatabase.open(sqlite_path(url), exclusive=exclusive)
    try:
        from bot.storage.postgres import PostgresDatabase
    except ImportError as error:  # the optional extra is not installed
        raise StorageError(
            "DATABASE_URL names PostgreSQL but asyncpg is not installed: "
            "pip install 'pickomino-bot[postgres]'"
        ) from error
    return await PostgresDatabase.open(url)


def listen(
    db: Database, channel: str, heard: Callable[[str], None], listening: Callable[[bool], None]
) -> Listening | None:
    """Notifications of `channel` from the other processes sharing `db` (started:
    bot.storage.postgres.listening); None on SQLite, which one process serves."""
    if db.dialect != "postgres":
        return None
    from bot.storage.postgres.database import PostgresDatabase
    from bot.storage.postgres.listening import Listening

    assert isinstance(db, PostgresDatabase)
    feed = Listening(db.url, channel, heard, listening)
    feed.start()
    return feed
