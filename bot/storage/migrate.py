"""Numbered SQL migrations (`migrations/NNNN_name.sql`), applied in order at start-up.

Each file runs in its own transaction together with its row in `schema_migrations`,
so a failing migration leaves the schema as it was.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from bot.storage.protocols import Database

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_FILE_NAME = re.compile(r"^(?P<version>\d{4})_(?P<name>[a-z0-9_]+)\.sql$")

_CREATE_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at INTEGER NOT NULL
)
"""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    path: Path

    def statements(self) -> list[str]:
        return split_statements(self.path.read_text(encoding="utf-8"))


def discover(folder: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migration files of `folder`, by version; two files with one number is an error."""
    found: dict[int, Migration] = {}
    for path in sorted(folder.glob("*.sql")):
        match = _FILE_NAME.match(path.name)
        if match is None:
            raise ValueError(f"migration file {path.name} is not named NNNN_name.sql")
        version = int(match["version"])
        if version in found:
            raise ValueError(
                f"migrations {found[version].path.name} and {path.name} share {version}"
            )
        found[version] = Migration(version, match["name"], path)
    return [found[version] for version in sorted(found)]


def split_statements(script: str) -> list[str]:
    """Split a script into complete statements (executescript would commit on its own)."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statement = _strip_comments(pending)
            if statement:
                statements.append(statement)
            pending = ""
    if _strip_comments(pending):
        raise ValueError(f"incomplete SQL statement: {pending.strip()[:60]!r}")
    return statements


def _strip_comments(sql: str) -> str:
    lines = (line for line in sql.splitlines() if not line.strip().startswith("--"))
    return "\n".join(lines).strip()


async def apply_migrations(db: Database, folder: Path = MIGRATIONS_DIR) -> list[int]:
    """Apply every migration not yet recorded; return the versions applied now."""
    async with db.transaction() as connection:
        await connection.execute(_CREATE_LEDGER)
    rows = await db.fetchall("SELECT version FROM schema_migrations")
    done = {row["version"] for row in rows}
    applied: list[int] = []
    for migration in discover(folder):
        if migration.version in done:
            continue
        async with db.transaction() as connection:
            for statement in migration.statements():
                await connection.execute(statement)
            await connection.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, int(time.time())),
            )
        applied.append(migration.version)
    return applied
