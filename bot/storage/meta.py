"""The meta table: small facts about the bot itself, such as where its commands are."""

from __future__ import annotations

from bot.storage.protocols import Database

APPLICATION_EMOJIS = "application_emojis"  # JSON: emoji name -> markup of the last sync


def command_guilds(application_id: int) -> str:
    """The key of the guilds (a JSON list of ids) where the application's commands were
    registered, to be emptied once they are no longer the dev guild. Keyed by the
    application: a database reused by another application knows nothing of its guilds."""
    return f"command_guilds:{application_id}"


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


async def delete_meta(db: Database, key: str) -> None:
    async with db.transaction() as connection:
        await connection.execute("DELETE FROM meta WHERE key = ?", (key,))
