"""Migration 0005 on a database written before it: finished games lose their events and
their message log (their history keeps the story), live games keep everything, and every
live message is taken as showing its session's version. On both dialects: PostgreSQL's
twin rewrites the JSON state through jsonb."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bot.storage import apply_migrations, open_database
from bot.storage.migrate import migrations_dir

BEFORE_0005 = ("0001_sessions.sql", "0002_results.sql")


def _state(started: bool) -> str:
    log = [{"type": "rolled"}, {"type": "kept"}]
    return json.dumps({"host_id": 1, "seats": [], "started_at": 5 if started else None, "log": log})


async def test_0005_compacts_finished_games_and_keeps_live_ones(
    tmp_path: Path, database_url: str
) -> None:
    db = await open_database(database_url)
    early = tmp_path / "early"
    early.mkdir()
    for name in BEFORE_0005:
        shutil.copy(migrations_dir(db.dialect) / name, early / name)
    try:
        await apply_migrations(db, early)
        sessions = [  # id, channel, status, version, started, has a story
            (1, 10, "over", 40, True, True),  # finished and recorded
            (2, 11, "over", 3, False, False),  # a lobby that was cancelled
            (3, 12, "over", 30, True, False),  # finished, but its history is missing
            (4, 13, "playing", 12, True, False),  # in play
        ]
        async with db.transaction() as connection:
            for session_id, channel, status, version, started, story in sessions:
                await connection.execute(
                    "INSERT INTO sessions (id, kind, guild_id, channel_id, status, version,"
                    " state, message_id, created_at, updated_at)"
                    " VALUES (?, 'pickomino', 1, ?, ?, ?, ?, ?, 0, 0)",
                    (session_id, channel, status, version, _state(started), 900 + session_id),
                )
                await connection.executemany(
                    "INSERT INTO session_events (session_id, seq, version, data, created_at)"
                    " VALUES (?, ?, ?, '{}', 0)",
                    [(session_id, seq, seq) for seq in range(1, 6)],
                )
                if story:
                    await connection.execute(
                        "INSERT INTO game_stories (game_id, turns) VALUES (?, '[]')", (session_id,)
                    )

        assert 5 in await apply_migrations(db)

        rows = await db.fetchall(
            "SELECT session_id, COUNT(*) AS n FROM session_events GROUP BY session_id"
        )
        assert {row["session_id"]: row["n"] for row in rows} == {3: 5, 4: 5}
        rows = await db.fetchall("SELECT id, version, shown_version, state FROM sessions")
        for row in rows:
            assert row["shown_version"] == row["version"]  # nothing to show again
            has_log = "log" in json.loads(row["state"])
            assert has_log == (row["id"] == 4), row["id"]  # only the live game keeps its log
    finally:
        await db.close()
