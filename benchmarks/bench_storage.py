"""Benchmark: the database bytes a finished game leaves behind.

Plays `--games` whole three-player Pickomino games through the session service (moves
chosen by the easy computer player, committed one by one as clicks are, the history
written by the game's own game-over hook), then reports the pages each table holds per
finished game (SQLite's dbstat: what the file grows by, indexes included).

Usage: python -m benchmarks.bench_storage [--games 40] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from pathlib import Path

from benchmarks.support.arguments import positive
from bot.games.pickomino.history import PICKOMINO_HISTORY
from bot.games.registry import GAMES
from bot.history.recorder import recorder
from bot.history.sql import SqlResultStore
from bot.sessions import lobby, play
from bot.sessions.model import Seat, Session
from bot.sessions.service import SessionService
from bot.storage import SqliteDatabase, apply_migrations

GUILD_ID, FIRST_CHANNEL = 1, 100
PLAYERS = (11, 12, 13)


async def table_bytes(db: SqliteDatabase) -> dict[str, int]:
    rows = await db.fetchall("SELECT name, SUM(pgsize) AS size FROM dbstat GROUP BY name")
    return {row["name"]: int(row["size"]) for row in rows}


async def play_game(service: SessionService, channel_id: int) -> None:
    session = Session(
        kind="pickomino",
        guild_id=GUILD_ID,
        channel_id=channel_id,
        host_id=PLAYERS[0],
        seats=[Seat(PLAYERS[0], "Anne")],
    )
    await service.open(session)
    for user_id, name in zip(PLAYERS[1:], ("Bob", "Cleo"), strict=True):
        seat = Seat(user_id, name)
        await service.update(channel_id, lambda s, t, seat=seat: lobby.join(s, t, seat))
    await service.update(channel_id, lambda s, t: lobby.start(s, t, PLAYERS[0]))
    adapter = service.adapter("pickomino")
    while (live := await service.live(channel_id)) is not None:
        player = adapter.current_player(live.game)
        assert player is not None
        move = adapter.bot_move(adapter.copy(live.game), "easy")
        user_id = int(player)
        await service.update(channel_id, lambda s, t, u=user_id, m=move: play.make_move(s, t, u, m))


async def run(games: int, seed: int) -> None:
    game = GAMES.plugin("pickomino")
    if game.warm_up is not None:
        game.warm_up(None)  # built here, no folder to keep them in
    with tempfile.TemporaryDirectory() as folder:
        db = await SqliteDatabase.open(Path(folder) / "storage.db")
        try:
            await apply_migrations(db)
            service = SessionService(db, GAMES.adapters(), rng=random.Random(seed))
            service.game_over_hooks["pickomino"] = recorder(PICKOMINO_HISTORY, SqlResultStore())
            before = await table_bytes(db)
            for index in range(games):
                await play_game(service, FIRST_CHANNEL + index)
            await service.close()
            after = await table_bytes(db)
            (recorded,) = await db.fetchone("SELECT COUNT(*) FROM history_games") or (0,)
            (events,) = await db.fetchone("SELECT COUNT(*) FROM session_events") or (0,)
        finally:
            await db.close()
    grown = {name: after[name] - before.get(name, 0) for name in after}
    total = sum(grown.values())
    print(
        f"{games} finished games ({recorded} recorded, {events} event rows left): "
        f"{total / games / 1024:.1f} KiB per game"
    )
    for name, size in sorted(grown.items(), key=lambda item: -item[1]):
        if size > 0:
            print(f"  {name:32} {size / games:8.0f} bytes per game")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=positive, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    asyncio.run(run(args.games, args.seed))


if __name__ == "__main__":
    main()
