"""The meta table: small facts about the bot itself, such as the synced command tree."""

from __future__ import annotations

from bot.storage.protocols import Database

COMMAND_TREE_HASH = "command_tree_hash"
APPLICATION_EMOJIS = "application_emojis"  # JSON: emoji name -> markup of the last sync


async def get_meta(db: Database, key: str) -> str | None:
    record = await db.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
    return None if record is None else str(record["value"])


async def set_meta(db: Database, key: str, value: str) -> None:
    async with db.transaction() as connection:
        await connection.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
