"""Migration 0007 on history written before it, on both dialects: a game played with
Extrawurm (its options say so) gets its variant and its own aggregates, and a person who
left a finished game stops counting it as a game played and counts it as left."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bot.history.models import Period, Ranking, Variants
from bot.history.sql import SqlResultStore
from bot.storage import apply_migrations, open_database
from bot.storage.migrate import migrations_dir

BEFORE_0007 = (
    "0001_sessions.sql",
    "0002_results.sql",
    "0003_history_by_game.sql",
    "0004_notify.sql",
    "0005_lean_sessions.sql",
    "0006_turn_pings.sql",
)
GUILD, DAY_ONE = 1, 20_000
ANNE, BRIDGET, THOMAS = 101, 102, 103
STORE = SqlResultStore()

# game id, options, abandoned, seats as (seat, user, name, score, rank, won, left)
GAMES = [
    (1, {"extrawurm": False}, [(0, ANNE, "Anne", 5, 1, 1, 0), (1, THOMAS, "Tom", 0, None, 0, 1)]),
    (2, {"extrawurm": True}, [(0, ANNE, "Anne", 3, 2, 0, 0), (1, BRIDGET, "Bri", 8, 1, 1, 0)]),
]  # fmt: skip
# What release code before 0007 kept: the leaver's game counted as played.
OLD_TOTALS = [  # user, name, games, wins, score
    (ANNE, "Anne", 2, 1, 8),
    (THOMAS, "Tom", 1, 0, 0),
    (BRIDGET, "Bri", 1, 1, 8),
]


async def _old_history(connection) -> None:
    ended = DAY_ONE * 86_400 + 100
    for game_id, options, seats in GAMES:
        await connection.execute(
            "INSERT INTO history_games (game_id, game, guild_id, channel_id, started_at,"
            " ended_at, abandoned, has_bots, turns, options)"
            " VALUES (?, 'pickomino', ?, 5, ?, ?, 0, 0, 10, ?)",
            (game_id, GUILD, ended - 60, ended, json.dumps(options)),
        )
        for seat, user, name, score, rank, won, left in seats:
            await connection.execute(
                "INSERT INTO history_players (game_id, seat, game, guild_id, ended_at, user_id,"
                " name, is_bot, left_game, score, rank, won, details, end_state)"
                " VALUES (?, ?, 'pickomino', ?, ?, ?, ?, 0, ?, ?, ?, ?, '{}', '{\"tiles\": []}')",
                (game_id, seat, GUILD, ended, user, name, left, score, rank, won),
            )
    for user, name, games, wins, score in OLD_TOTALS:
        await connection.execute(
            "INSERT INTO history_totals (game, guild_id, user_id, name, stored_games, games,"
            " wins, score, best_score, current_streak, longest_streak)"
            " VALUES ('pickomino', ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)",
            (GUILD, user, name, games, games, wins, score, score),
        )
        await connection.execute(
            "INSERT INTO history_days (game, guild_id, day, user_id, games, wins, score)"
            " VALUES ('pickomino', ?, ?, ?, ?, ?, ?)",
            (GUILD, DAY_ONE, user, games, wins, score),
        )


async def test_0007_marks_extrawurm_games_and_counts_leavers_apart(
    tmp_path: Path, database_url: str
) -> None:
    db = await open_database(database_url)
    early = tmp_path / "early"
    early.mkdir()
    for name in BEFORE_0007:
        shutil.copy(migrations_dir(db.dialect) / name, early / name)
    try:
        await apply_migrations(db, early)
        async with db.transaction() as connection:
            await _old_history(connection)
        assert 7 in await apply_migrations(db)

        async with db.transaction() as conn:
            page = await STORE.history_page(conn, "pickomino", GUILD)
            assert [(g.game_id, g.variant) for g in page.games] == [(2, "extrawurm"), (1, None)]
            thomas = await STORE.player_stats(conn, "pickomino", GUILD, THOMAS)
            assert thomas is not None
            assert (thomas.games, thomas.left_games, thomas.stored_games) == (0, 1, 1)
            anne = await STORE.player_stats(conn, "pickomino", GUILD, ANNE)
            assert anne is not None and (anne.games, anne.score, anne.left_games) == (2, 8, 0)

            async def board(variants: Variants, period: Period = Period.ALL_TIME):
                found = await STORE.leaderboard(
                    conn, "pickomino", GUILD, Ranking.GAMES, period, asker_id=THOMAS,
                    now=DAY_ONE * 86_400 + 200, variant="extrawurm", variants=variants,
                )  # fmt: skip
                return [(e.user_id, e.games, e.wins, e.score) for e in found.top]

            assert await board(Variants.ALL) == [(ANNE, 2, 1, 8), (BRIDGET, 1, 1, 8)]
            assert await board(Variants.ONLY) == [(BRIDGET, 1, 1, 8), (ANNE, 1, 0, 3)]
            assert await board(Variants.WITHOUT) == [(ANNE, 1, 1, 5)]
            # The rolling windows are rebuilt from the corrected days.
            assert await board(Variants.ALL, Period.DAYS_7) == [(ANNE, 2, 1, 8), (BRIDGET, 1, 1, 8)]
            assert await board(Variants.WITHOUT, Period.DAYS_7) == [(ANNE, 1, 1, 5)]
    finally:
        await db.close()
