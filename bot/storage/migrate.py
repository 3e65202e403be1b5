"""Numbered SQL migrations per dialect (`migrations/<dialect>/NNNN_name.sql`), applied in
order at start-up.

Each file runs in its own transaction together with its row in `schema_migrations`,
so a failing migration leaves the schema as it was. The two dialects keep the same
numbers and names, so a version means the same schema on both.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from bot.storage.protocols import Database, unhurried

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
DIALECTS = ("sqlite", "postgres")
# Two processes starting at once on PostgreSQL: one applies, the other waits and skips.
_POSTGRES_LOCK = "SELECT pg_advisory_xact_lock(727476)"
_FILE_NAME = re.compile(r"^(?P<version>\d{4})_(?P<name>[a-z0-9_]+)\.sql$")

_CREATE_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at BIGINT NOT NULL
)
"""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    path: Path

    def statements(self) -> list[str]:
        return split_statements(self.path.read_text(encoding="utf-8"))


def migrations_dir(dialect: str) -> Path:
    """The folder of a dialect's migrations."""
    if dialect not in DIALECTS:
        raise ValueError(f"no migrations for the {dialect!r} dialect")
    return MIGRATIONS_DIR / dialect


def discover(folder: Path) -> list[Migration]:
    """The migration files of `folder`, by version; two files with one number is an error.

    For the SQLite folder, files left directly in `migrations/` (where they lived before
    there were two dialects) count as SQLite migrations too."""
    paths = list(folder.glob("*.sql"))
    if folder == migrations_dir("sqlite"):
        paths += MIGRATIONS_DIR.glob("*.sql")
    found: dict[int, Migration] = {}
    for path in sorted(paths, key=lambda path: path.name):
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


async def apply_migrations(db: Database, folder: Path | None = None) -> list[int]:
    """Apply every migration of the database's dialect (or of `folder`) not yet recorded;
    return the versions applied now. A migration takes as long as it needs (a big
    history rebuilt, another process's migrations waited for): no statement timeout."""
    with unhurried():
        return await _apply(db, folder)


async def _apply(db: Database, folder: Path | None) -> list[int]:
    postgres = db.dialect == "postgres"
    async with db.transaction() as connection:
        if postgres:
            await connection.execute(_POSTGRES_LOCK)
        await connection.execute(_CREATE_LEDGER)
    rows = await db.fetchall("SELECT version FROM schema_migrations")
    done = {row["version"] for row in rows}
    applied: list[int] = []
    for migration in discover(folder or migrations_dir(db.dialect)):
        if migration.version in done:
            continue
        async with db.transaction() as connection:
            if postgres:
                await connection.execute(_POSTGRES_LOCK)
                # Another process may have applied it while we waited for the lock.
                async with connection.execute(
                    "SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,)
                ) as cursor:
                    if await cursor.fetchone() is not None:
                        continue
            for statement in migration.statements():
                await connection.execute(statement)
            await connection.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, int(time.time())),
            )
        applied.append(migration.version)
    return applied
