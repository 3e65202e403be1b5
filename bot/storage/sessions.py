"""Rows of the sessions and session_events tables; the session layer gives them meaning."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.protocols import Connection, Database, Row

_COLUMNS = "id, kind, guild_id, channel_id, status, version, state, message_id, deadline"


class VersionConflict(Exception):
    """The stored session moved on since it was read: nothing was written."""


@dataclass(slots=True)
class SessionRow:
    id: int | None  # None until inserted
    kind: str
    guild_id: int
    channel_id: int
    status: str
    version: int
    state: dict[str, Any]
    message_id: int | None = None
    deadline: float | None = None

    @classmethod
    def from_record(cls, record: Row) -> SessionRow:
        return cls(
            id=record["id"],
            kind=record["kind"],
            guild_id=record["guild_id"],
            channel_id=record["channel_id"],
            status=record["status"],
            version=record["version"],
            state=json.loads(record["state"]),
            message_id=record["message_id"],
            deadline=record["deadline"],
        )


class SessionStore:
    """The sessions and their events in SQL. Reads on the shared connection; writes take
    the caller's transaction connection."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def live_in_channel(self, channel_id: int) -> SessionRow | None:
        record = await self.db.fetchone(
            f"SELECT {_COLUMNS} FROM sessions WHERE channel_id = ? AND status != 'over'",
            (channel_id,),
        )
        return None if record is None else SessionRow.from_record(record)

    async def get(self, session_id: int) -> SessionRow | None:
        record = await self.db.fetchone(
            f"SELECT {_COLUMNS} FROM sessions WHERE id = ?", (session_id,)
        )
        return None if record is None else SessionRow.from_record(record)

    async def with_deadlines(self) -> list[SessionRow]:
        """Live sessions with a turn timer to arm (at start-up)."""
        records = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM sessions WHERE deadline IS NOT NULL AND status != 'over'"
        )
        return [SessionRow.from_record(record) for record in records]

    async def events(self, session_id: int) -> list[dict[str, Any]]:
        records = await self.db.fetchall(
            "SELECT data FROM session_events WHERE session_id = ? ORDER BY seq", (session_id,)
        )
        return [json.loads(record["data"]) for record in records]

    @staticmethod
    async def insert(connection: Connection, row: SessionRow) -> int:
        """Insert a new session; sets and returns its id."""
        now = int(time.time())
        cursor = await connection.execute(
            "INSERT INTO sessions (kind, guild_id, channel_id, status, version, state,"
            " message_id, deadline, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.kind,
                row.guild_id,
                row.channel_id,
                row.status,
                row.version,
                encode(row.state),
                row.message_id,
                row.deadline,
                now,
                now,
            ),
        )
        assert cursor.lastrowid is not None
        row.id = cursor.lastrowid
        return row.id

    async def lock_for_update(self, connection: Connection, session_id: int) -> None:
        """Lock the session's row until the transaction ends (PostgreSQL), so two processes
        committing one session queue up instead of racing; the version check still decides.
        On SQLite, BEGIN IMMEDIATE already lets one writer in at a time."""
        if self.db.dialect == "postgres":
            await connection.execute(
                "SELECT id FROM sessions WHERE id = ? FOR UPDATE", (session_id,)
            )

    async def claim_timer(self, connection: Connection, session_id: int, version: int) -> bool:
        """Claim a due timer of the session at `version` for this transaction: False if the
        session moved on, or (PostgreSQL) another process holds its row right now, so one
        timer is never applied twice."""
        skip_locked = " FOR UPDATE SKIP LOCKED" if self.db.dialect == "postgres" else ""
        async with connection.execute(
            f"SELECT id FROM sessions WHERE id = ? AND version = ?{skip_locked}",
            (session_id, version),
        ) as cursor:
            return await cursor.fetchone() is not None

    @staticmethod
    async def update(connection: Connection, row: SessionRow, read_version: int) -> None:
        """Write the row if the stored version is still `read_version`, else VersionConflict."""
        cursor = await connection.execute(
            "UPDATE sessions SET status = ?, version = ?, state = ?, message_id = ?,"
            " deadline = ?, updated_at = ? WHERE id = ? AND version = ?",
            (
                row.status,
                row.version,
                encode(row.state),
                row.message_id,
                row.deadline,
                int(time.time()),
                row.id,
                read_version,
            ),
        )
        if cursor.rowcount != 1:
            raise VersionConflict(f"session {row.id} is no longer at version {read_version}")

    @staticmethod
    async def append_events(
        connection: Connection,
        session_id: int,
        version: int,
        events: Sequence[str],
    ) -> None:
        """Append events already encoded with `encode` (the caller logs the same text)."""
        if not events:
            return
        async with connection.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM session_events WHERE session_id = ?",
            (session_id,),
        ) as cursor:
            record = await cursor.fetchone()
        last = record[0] if record else 0
        now = int(time.time())
        await connection.executemany(
            "INSERT INTO session_events (session_id, seq, version, data, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [
                (session_id, last + offset, version, event, now)
                for offset, event in enumerate(events, start=1)
            ],
        )

    @staticmethod
    async def events_in(connection: Connection, session_id: int) -> list[dict[str, Any]]:
        """A session's events read inside a transaction (its own writes included)."""
        async with connection.execute(
            "SELECT data FROM session_events WHERE session_id = ? ORDER BY seq", (session_id,)
        ) as cursor:
            records = await cursor.fetchall()
        return [json.loads(record[0]) for record in records]


def encode(value: Any) -> str:
    """Compact JSON, as the state and data columns hold it."""
    return json.dumps(value, separators=(",", ":"))
