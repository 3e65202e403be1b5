"""People's notification settings: whether their turn starts with a ping."""

from __future__ import annotations

import time

from bot.storage.protocols import Database


class NotifyStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def turn_pings(self, user_id: int) -> bool:
        """Whether `user_id` is pinged when their turn starts (yes, unless turned off)."""
        record = await self.db.fetchone(
            "SELECT turn_pings FROM notify_settings WHERE user_id = ?", (user_id,)
        )
        return True if record is None else bool(record["turn_pings"])

    async def set_turn_pings(self, user_id: int, on: bool) -> None:
        async with self.db.transaction() as connection:
            await connection.execute(
                "INSERT INTO notify_settings (user_id, turn_pings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET turn_pings = excluded.turn_pings,"
                " updated_at = excluded.updated_at",
                (user_id, int(on), int(time.time())),
            )
