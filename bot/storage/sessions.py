"""Rows of the sessions and session_events tables; the session layer gives them meaning."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from bot.storage.protocols import Connection, Database, Row, RowCountMismatch, Statement

_COLUMNS = (
    "id, kind, guild_id, channel_id, status, version, state, message_id, deadline, shown_version"
)
_UPDATE = (
    "UPDATE sessions SET status = ?, version = ?, state = ?, message_id = ?,"
    " deadline = ?, updated_at = ? WHERE id = ? AND version = ?"
)
_INSERT_EVENT = (
    "INSERT INTO session_events (session_id, seq, version, data, created_at) VALUES (?, ?, ?, ?, ?)"
)
# Only ever forward: a late mark never hides a newer version that is not shown.
_MARK_SHOWN = "UPDATE sessions SET shown_version = ? WHERE id = ? AND shown_version < ?"
_LOCK_ROW = "SELECT id FROM sessions WHERE id = ? FOR UPDATE"
_SELECT_AT_VERSION = "SELECT id FROM sessions WHERE id = ? AND version = ?"
# A click's commit on PostgreSQL in one statement: three round trips with BEGIN and
# COMMIT (the batch's are five or six: BEGIN, the lock, the update, the events, the
# mark, COMMIT), and a pooled connection held that much less. The row is locked at its
# version first (a due timer skips it if another process holds it: {skip}); a row that
# moved on updates nothing, so no event is written either, and the caller is told 0.
# Its own mark rides along, only ever forward as _MARK_SHOWN.
_COMMIT_IN_ONE_STATEMENT = """
WITH claimed AS (
    SELECT id FROM sessions WHERE id = :id AND version = :read_version FOR UPDATE{skip}
), updated AS (
    UPDATE sessions SET status = :status, version = :version, state = :state,
        message_id = :message_id, deadline = :deadline, updated_at = :now,
        shown_version = GREATEST(shown_version, :shown)
    FROM claimed WHERE sessions.id = claimed.id
    RETURNING sessions.id
), appended AS (
    INSERT INTO session_events (session_id, seq, version, data, created_at)
    SELECT updated.id, :first_seq + event.number - 1, :version, event.data, :now
    FROM updated, unnest(:events::text[]) WITH ORDINALITY AS event (data, number)
){notify}
SELECT count(*) AS updated{notified} FROM updated
"""
COMMIT_CHANNEL = "session_commit"  # PostgreSQL's NOTIFY channel of the sessions' commits
_NOTIFY = f"SELECT pg_notify('{COMMIT_CHANNEL}', ?)"
# The other processes told of the commit (bot.sessions.other_processes) by the same
# statement, only if it updated the row; PostgreSQL delivers it at COMMIT, in commit
# order. A CTE that calls a volatile function is run whole, once it is read.
_NOTIFY_PARTS = {
    "notify": f""", notified AS (
    SELECT pg_notify('{COMMIT_CHANNEL}', :notice) FROM updated
)""",
    "notified": ", (SELECT count(*) FROM notified) AS notified",
}
# Spelled once, not at each click: for a click (it waits for a lock held elsewhere) and
# for a due timer (it skips the row then); with the other processes notified, or not.
_COMMIT_STATEMENTS = {
    (timer, notify): _COMMIT_IN_ONE_STATEMENT.format(
        skip=" SKIP LOCKED" if timer else "",
        **(_NOTIFY_PARTS if notify else dict.fromkeys(_NOTIFY_PARTS, "")),
    )
    for timer in (False, True)
    for notify in (False, True)
}


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
    shown_version: int = 0  # the version the live message shows (as last recorded)

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
            shown_version=record["shown_version"],
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

    async def behind(self) -> list[SessionRow]:
        """Sessions whose message may show an older version than the stored one (at
        start-up: a reply lost to a crash or to Discord)."""
        records = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM sessions"
            " WHERE shown_version < version AND message_id IS NOT NULL"
        )
        return [SessionRow.from_record(record) for record in records]

    async def last_seq(self, session_id: int) -> int:
        """The sequence number of the session's last event (0 if none); read once per
        session loaded, then counted in memory."""
        record = await self.db.fetchone(
            "SELECT COALESCE(MAX(seq), 0) AS last FROM session_events WHERE session_id = ?",
            (session_id,),
        )
        return int(record["last"]) if record is not None else 0

    async def live_last_seqs(self) -> dict[int, int]:
        """The last event's sequence number of every session not over that has events
        (session id -> seq): at start-up, in one read instead of one per session's
        first commit, all at once as the replayed clicks and due timers come in."""
        records = await self.db.fetchall(
            "SELECT e.session_id AS id, MAX(e.seq) AS last FROM session_events e"
            " JOIN sessions s ON s.id = e.session_id WHERE s.status != 'over'"
            " GROUP BY e.session_id"
        )
        return {int(record["id"]): int(record["last"]) for record in records}

    async def commit(
        self,
        row: SessionRow,
        read_version: int,
        first_seq: int,
        events: Sequence[str],
        shown: Mapping[int, int],
        *,
        timer: bool = False,
        notice: str | None = None,
    ) -> None:
        """Write the row (if still at `read_version`, else VersionConflict), its events
        numbered from `first_seq`, and the `shown` marks (session id -> version), as one
        transaction; with a `notice` (PostgreSQL), the other processes are notified of it.

        On PostgreSQL the row is locked first (as `lock_for_update`), or for a due timer
        (`timer=True`) claimed (as `claim_timer`: VersionConflict if another process
        holds it or it moved on), and with no mark but its own it is all one statement.
        On SQLite the version check is both, and the batch one trip to its thread."""
        assert row.id is not None
        if self.db.dialect == "postgres" and set(shown) <= {row.id}:
            await self._commit_in_one_statement(
                row, read_version, first_seq, events, shown, timer, notice
            )
        else:
            await self.commit_as_batch(
                row, read_version, first_seq, events, shown, timer=timer, notice=notice
            )

    async def _commit_in_one_statement(
        self,
        row: SessionRow,
        read_version: int,
        first_seq: int,
        events: Sequence[str],
        shown: Mapping[int, int],
        timer: bool,
        notice: str | None,
    ) -> None:
        assert row.id is not None
        parameters = {
            "id": row.id,
            "read_version": read_version,
            "status": row.status,
            "version": row.version,
            "state": encode(row.state),
            "message_id": row.message_id,
            "deadline": row.deadline,
            "now": int(time.time()),
            "shown": shown.get(row.id),
            "first_seq": first_seq,
            "events": list(events),
            **({"notice": notice} if notice is not None else {}),
        }
        # In a transaction of its own, though one statement would be one: a statement
        # sent to a server that hangs runs when it wakes, after the click was told its
        # move did not count; without COMMIT, it is rolled back as the connection is gone.
        async with (
            self.db.transaction() as connection,
            connection.execute(_COMMIT_STATEMENTS[timer, notice is not None], parameters) as cursor,
        ):
            record = await cursor.fetchone()
        if record is None or record["updated"] != 1:
            raise VersionConflict(f"session {row.id} is no longer at {read_version}")

    async def commit_as_batch(
        self,
        row: SessionRow,
        read_version: int,
        first_seq: int,
        events: Sequence[str],
        shown: Mapping[int, int],
        *,
        timer: bool = False,
        notice: str | None = None,
    ) -> None:
        """`commit` as a batch of statements in one transaction (on SQLite, and on
        PostgreSQL when other sessions' marks ride along)."""
        assert row.id is not None
        now = int(time.time())
        statements = []
        if self.db.dialect == "postgres":
            if timer:
                claim = f"{_SELECT_AT_VERSION} FOR UPDATE SKIP LOCKED"
                statements.append(Statement(claim, (row.id, read_version), expect_rows=1))
            else:
                statements.append(Statement(_LOCK_ROW, (row.id,)))
        statements.append(Statement(_UPDATE, _update_params(row, read_version, now), expect_rows=1))
        if events:
            rows = [
                (row.id, seq, row.version, event, now)
                for seq, event in enumerate(events, start=first_seq)
            ]
            statements.append(Statement(_INSERT_EVENT, rows, many=True))
        if shown:
            statements.append(Statement(_MARK_SHOWN, _shown_params(shown), many=True))
        if notice is not None:
            statements.append(Statement(_NOTIFY, (notice,)))
        try:
            await self.db.execute_batch(statements)
        except RowCountMismatch as error:
            raise VersionConflict(f"session {row.id} is no longer at {read_version}") from error

    async def mark_shown(self, shown: Mapping[int, int]) -> None:
        """Record which version each live message shows (session id -> version)."""
        if shown:  # only ever forward: a mark landing late is harmless (execute_one)
            await self.db.execute_one(Statement(_MARK_SHOWN, _shown_params(shown), many=True))

    async def events_after(self, session_id: int, version: int) -> list[dict[str, Any]]:
        """The session's events of the versions after `version` (a change another
        process committed); none once a finished game's were dropped."""
        records = await self.db.fetchall(
            "SELECT data FROM session_events WHERE session_id = ? AND version > ? ORDER BY seq",
            (session_id, version),
        )
        return [json.loads(record["data"]) for record in records]

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
            await connection.execute(_LOCK_ROW, (session_id,))

    async def claim_timer(self, connection: Connection, session_id: int, version: int) -> bool:
        """Claim a due timer of the session at `version` for this transaction: False if the
        session moved on, or (PostgreSQL) another process holds its row right now, so one
        timer is never applied twice."""
        skip_locked = " FOR UPDATE SKIP LOCKED" if self.db.dialect == "postgres" else ""
        async with connection.execute(
            f"{_SELECT_AT_VERSION}{skip_locked}", (session_id, version)
        ) as cursor:
            return await cursor.fetchone() is not None

    @staticmethod
    async def update(connection: Connection, row: SessionRow, read_version: int) -> None:
        """Write the row if the stored version is still `read_version`, else VersionConflict."""
        params = _update_params(row, read_version, int(time.time()))
        cursor = await connection.execute(_UPDATE, params)
        if cursor.rowcount != 1:
            raise VersionConflict(f"session {row.id} is no longer at version {read_version}")

    @staticmethod
    async def append_events(
        connection: Connection,
        session_id: int,
        version: int,
        events: Sequence[str],
        first_seq: int,
    ) -> None:
        """Append events already encoded with `encode` (the caller logs the same text),
        numbered from `first_seq`."""
        if not events:
            return
        now = int(time.time())
        await connection.executemany(
            _INSERT_EVENT,
            [
                (session_id, seq, version, event, now)
                for seq, event in enumerate(events, start=first_seq)
            ],
        )

    @staticmethod
    async def write_shown(connection: Connection, shown: Mapping[int, int]) -> None:
        """The `shown` marks (session id -> version) inside a transaction."""
        if shown:
            await connection.executemany(_MARK_SHOWN, _shown_params(shown))

    @staticmethod
    async def notify(connection: Connection, notice: str) -> None:
        """Notify the other processes of this transaction's commit (PostgreSQL; at COMMIT)."""
        await connection.execute(_NOTIFY, (notice,))

    @staticmethod
    async def drop_events(connection: Connection, session_id: int) -> None:
        """Forget a finished session's events (its history keeps what it needs)."""
        await connection.execute("DELETE FROM session_events WHERE session_id = ?", (session_id,))

    @staticmethod
    async def event_texts_in(connection: Connection, session_id: int) -> list[str]:
        """A session's events as stored (each one event's JSON text), read inside a
        transaction (its own writes included)."""
        async with connection.execute(
            "SELECT data FROM session_events WHERE session_id = ? ORDER BY seq", (session_id,)
        ) as cursor:
            records = await cursor.fetchall()
        return [str(record[0]) for record in records]


def _update_params(row: SessionRow, read_version: int, now: int) -> tuple[Any, ...]:
    return (
        row.status,
        row.version,
        encode(row.state),
        row.message_id,
        row.deadline,
        now,
        row.id,
        read_version,
    )


def _shown_params(shown: Mapping[int, int]) -> list[tuple[int, int, int]]:
    # In id order: two transactions marking the same rows lock them in the same order.
    return [(version, session_id, version) for session_id, version in sorted(shown.items())]


@dataclass(frozen=True, slots=True)
class CommitNotice:
    """A commit another process told of: which session, at which version, and which
    process (its token) committed it."""

    channel_id: int
    session_id: int
    version: int
    token: str


def commit_notice(channel_id: int, session_id: int, version: int, token: str) -> str:
    """The NOTIFY payload of a commit: `<channel_id> <session_id> <version> <token>`."""
    return f"{channel_id} {session_id} {version} {token}"


def read_commit_notice(payload: str) -> CommitNotice | None:
    """A NOTIFY payload read back (None if it is not one of ours)."""
    parts = payload.split(" ")
    if len(parts) != 4 or not all(part.isdigit() for part in parts[:3]):
        return None
    channel_id, session_id, version, token = parts
    return CommitNotice(int(channel_id), int(session_id), int(version), token)


def encode(value: Any) -> str:
    """Compact JSON, as the state and data columns hold it (UTF-8, not \\u escapes;
    integer keys become strings, as with the json module)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
