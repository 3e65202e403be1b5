"""Storage: the protocols the bot relies on (protocols.py), and SQLite behind them: the
database and its transactions, migrations, and the stores."""

from bot.storage.database import SqliteDatabase
from bot.storage.migrate import apply_migrations
from bot.storage.protocols import StorageError

Database = SqliteDatabase  # the embedded default implementation

__all__ = ["Database", "SqliteDatabase", "StorageError", "apply_migrations"]
