"""SQLite storage: the database and its transactions, migrations, and the stores."""

from bot.storage.database import Database
from bot.storage.migrate import apply_migrations

__all__ = ["Database", "apply_migrations"]
