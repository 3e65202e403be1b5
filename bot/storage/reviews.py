"""Finished games' reviews as stored (table game_reviews): JSON, one row a game, written
once. What is inside is the games' business (bot.plugin.review); this module names no
game and reads no field of it."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from bot.storage.protocols import Database, Statement


@dataclass(frozen=True, slots=True)
class StoredReview:
    game_id: int
    kind: str
    guild_id: int  # the game's community
    data: dict[str, Any]


class ReviewStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, game_id: int) -> StoredReview | None:
        row = await self.db.fetchone(
            "SELECT game_id, kind, guild_id, data FROM game_reviews WHERE game_id = ?",
            (game_id,),
        )
        if row is None:
            return None
        return StoredReview(
            int(row["game_id"]), str(row["kind"]), int(row["guild_id"]), json.loads(row["data"])
        )

    async def put(self, review: StoredReview) -> int:
        """Store a game's review, unless one is stored already (the first one stays);
        return the bytes of its JSON."""
        data = json.dumps(review.data, separators=(",", ":"), ensure_ascii=False)
        insert = Statement(
            "INSERT INTO game_reviews (game_id, kind, guild_id, data, created_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
            (review.game_id, review.kind, review.guild_id, data, int(time.time())),
        )
        await self.db.execute_one(insert)  # stored once: landing late is harmless
        return len(data.encode())
