"""Small reads every history store shares: rows as tuples, and people's stored names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.protocols import Connection


async def stored_names(
    connection: Connection, game: str, guild_id: int, user_ids: list[int]
) -> dict[int, str]:
    if not user_ids:
        return {}
    marks = ", ".join("?" * len(user_ids))
    rows = await fetch_all(
        connection,
        "SELECT user_id, name FROM history_totals"
        f" WHERE game = ? AND guild_id = ? AND user_id IN ({marks})",
        [game, guild_id, *user_ids],
    )
    return dict(rows)


async def fetch_all(connection: Connection, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
    async with connection.execute(sql, args) as cursor:
        return [tuple(row) for row in await cursor.fetchall()]


async def fetch_one(
    connection: Connection, sql: str, args: Sequence[Any]
) -> tuple[Any, ...] | None:
    async with connection.execute(sql, args) as cursor:
        row = await cursor.fetchone()
    return None if row is None else tuple(row)
