"""Turn pings as stored (bot.ui.pings keeps them here and in memory): which message pings
for which turn in a channel, so a restart still deletes it. A half-time reminder takes
its turn's ping's place, here as in the channel."""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.storage.protocols import Database, Row, Statement

_COLUMNS = "channel_id, guild_id, session_id, turn, message_id"


@dataclass(frozen=True, slots=True)
class StoredPing:
    channel_id: int
    guild_id: int
    session_id: int
    turn: str  # the turn it belongs to ('<session id>:<the adapter's turn key>')
    message_id: int


def _ping(row: Row) -> StoredPing:
    return StoredPing(
        channel_id=int(row["channel_id"]),
        guild_id=int(row["guild_id"]),
        session_id=int(row["session_id"]),
        turn=str(row["turn"]),
        message_id=int(row["message_id"]),
    )


class PingStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, channel_id: int) -> StoredPing | None:
        row = await self.db.fetchone(
            f"SELECT {_COLUMNS} FROM turn_pings WHERE channel_id = ?", (channel_id,)
        )
        return None if row is None else _ping(row)

    async def all(self) -> list[StoredPing]:
        rows = await self.db.fetchall(f"SELECT {_COLUMNS} FROM turn_pings ORDER BY channel_id")
        return [_ping(row) for row in rows]

    async def put(self, ping: StoredPing) -> None:
        """The channel's ping (replacing an older one: one a channel)."""
        # One trip to the database (execute_one: a batch's BEGIN and COMMIT would make it
        # three on PostgreSQL, twice a turn). So it may land late, after a server that
        # hung wakes: it then replaces only an older ping (Discord's ids grow with time),
        # and a record whose message is gone is deleted again at the next start.
        upsert = Statement(
            f"INSERT INTO turn_pings ({_COLUMNS}, created_at) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id,"
            " session_id = excluded.session_id, turn = excluded.turn,"
            " message_id = excluded.message_id, created_at = excluded.created_at"
            " WHERE turn_pings.message_id < excluded.message_id",
            (
                ping.channel_id,
                ping.guild_id,
                ping.session_id,
                ping.turn,
                ping.message_id,
                int(time.time()),
            ),
        )
        await self.db.execute_one(upsert)

    async def remove(self, channel_id: int, message_id: int) -> None:
        """Forget this ping (and only it: a newer one of the channel stays)."""
        delete = Statement(
            "DELETE FROM turn_pings WHERE channel_id = ? AND message_id = ?",
            (channel_id, message_id),
        )
        await self.db.execute_one(delete)
