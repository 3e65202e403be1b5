"""Benchmark: N button clicks through the real handlers across M concurrent games.

The production bot (discord.py's interaction parsing, the cog, the session service,
SQLite in WAL mode in a temporary file) with Discord's transport faked in memory, as in
the tests. Each round delivers one click to each of `--concurrency` games at once; a
click's time runs from its INTERACTION_CREATE to the bot's interaction response, which
comes after the commit. Ended games are played again with the same players.

Usage: python -m benchmarks.bench_clicks [--games 500] [--clicks 20000] [--concurrency 1]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.sessions.model import Status
from tests.cogs.helpers import choose
from tests.discord_harness import CHANNEL_ID, BotHarness, FakeUser, StoredMessage

PLAYERS_PER_GAME = 3


class Table:
    """One channel: its players and its live message."""

    def __init__(self, channel_id: int, players: list[FakeUser]) -> None:
        self.channel_id = channel_id
        self.players = players
        self.message_id = 0


async def open_table(harness: BotHarness, table: Table) -> None:
    host, *others = table.players
    started = await harness.slash(
        host, "pickomino", "start", channel_id=table.channel_id, turn_timer=0
    )
    table.message_id = started.message.id
    for player in others:
        await harness.click(player, harness.message(table.message_id), "Join")
    await harness.click(host, harness.message(table.message_id), "Start")


async def next_click(harness: BotHarness, table: Table) -> tuple[FakeUser, StoredMessage, str]:
    session = await harness.bot.sessions.live(table.channel_id)
    message = harness.message(table.message_id)
    if session is None:  # over: play again
        return table.players[0], message, "Play again"
    table.message_id = session.message_id or table.message_id
    message = harness.message(table.message_id)
    if session.status is Status.LOBBY:
        return harness.member(session.host_id), message, "Start"
    return harness.member(session.game.current_player), message, choose(message)


async def run(games: int, clicks: int, concurrency: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        async with BotHarness.running(Path(folder) / "bench.db", seed=seed) as harness:
            tables = [
                Table(
                    CHANNEL_ID + index,
                    [harness.user(f"P{index}-{n}") for n in range(PLAYERS_PER_GAME)],
                )
                for index in range(games)
            ]
            for table in tables:
                await open_table(harness, table)
            latencies: list[float] = []
            order = random.Random(seed)
            started = time.perf_counter()
            while len(latencies) < clicks:
                batch = order.sample(tables, min(concurrency, len(tables)))
                planned = [await next_click(harness, table) for table in batch]
                payloads = [harness.click_payload(u, m, which) for u, m, which in planned]
                sent = time.perf_counter()
                results = await harness.dispatch_together(*payloads)
                harness.fake.forget()  # keep the fake's records from growing all run
                for table, result in zip(batch, results, strict=True):
                    assert result.answered_at is not None, result
                    latencies.append(result.answered_at - sent)
                    if result.callbacks and result.callbacks[0]["type"] == 4:
                        table.message_id = result.message.id  # Play again: a new lobby
            elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "clicks": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
        "max_ms": 1000 * latencies[-1],
        "clicks_per_second": len(latencies) / elapsed,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--clicks", type=int, default=20_000)
    parser.add_argument("--concurrency", type=int, default=1, help="clicks delivered at once")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.games, args.clicks, args.concurrency, args.seed))
    print(
        f"{figures['clicks']} clicks across {args.games} games "
        f"({args.concurrency} at a time): "
        f"p50 {figures['p50_ms']:.2f} ms, p99 {figures['p99_ms']:.2f} ms, "
        f"max {figures['max_ms']:.2f} ms, {figures['clicks_per_second']:.0f} clicks/s"
    )


if __name__ == "__main__":
    main()
