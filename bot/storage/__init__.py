"""Storage: the protocols the bot relies on (protocols.py), SQLite and PostgreSQL behind
them (database.py, postgres/), `open_database(url)` choosing between them, migrations per
dialect, and the stores."""

from bot.storage.database import SqliteDatabase
from bot.storage.factory import open_database
from bot.storage.migrate import apply_migrations
from bot.storage.protocols import StorageError

Database = SqliteDatabase  # the embedded default implementation

__all__ = ["Database", "SqliteDatabase", "StorageError", "apply_migrations", "open_database"]
