"""Benchmark: how long the event loop waits for the GIL while a review computes beside it.

Usage:
  python -m benchmarks.bench_loop_wait [--clicks N] [--requests K] [--repeats R]

The loop makes "clicks" of K requests one after another (a click's callback, its
database queries, its message edit) to a process of its own that answers at once (as
Discord and PostgreSQL are other processes), N clicks a repeat, while the bot's review
thread (`bot.process.worker_threads.REVIEWS`) reviews Pickomino games of 4 players
without a pause, as at a wave of game ends. Each time a request's answer arrives, the
loop's thread needs the GIL back from the review thread, which hands it over only after
its switch interval. Printed for no review, then a review at Python's default interval
(5 ms) and at the bot's (`favour_the_event_loop`): a click's requests' wait p50 and p99
and the reviews finished a second (what the shorter interval costs the review), the
medians of R repeats.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.queues import Queue

from benchmarks.bench_review import played_game
from benchmarks.support.arguments import positive
from benchmarks.support.stats import percentile
from bot.games.pickomino.ai import warm_up
from bot.games.pickomino.ai.players import Level
from bot.games.pickomino.engine import Rules
from bot.games.pickomino.review import PickominoReviewer
from bot.plugin.review import ReviewSetup
from bot.process.worker_threads import REVIEWS, SWITCH_INTERVAL_SECONDS, run_in
from bot.sessions.adapter import GameEvent

PYTHON_DEFAULT_INTERVAL = 0.005
GAMES = 8  # reviewed in turn, again and again
REVIEWER = PickominoReviewer()


def answer_at_once(port: Queue[int]) -> None:
    """The other end: echoes each request (runs in a process of its own)."""

    async def serve() -> None:
        async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while data := await reader.read(64):
                writer.write(data)
                await writer.drain()

        server = await asyncio.start_server(echo, "127.0.0.1", 0)
        port.put(server.sockets[0].getsockname()[1])
        await server.serve_forever()

    asyncio.run(serve())


@dataclass(frozen=True, slots=True)
class Repeat:
    click_ms: list[float]  # each click's requests, one after another
    reviews_per_second: float


async def clicks(port: int, count: int, requests: int) -> list[float]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    waits = []
    for _ in range(count):
        began = time.perf_counter()
        for _ in range(requests):
            writer.write(b"?")
            await writer.drain()
            await reader.read(64)
        waits.append((time.perf_counter() - began) * 1000)
        await asyncio.sleep(0.01)  # the next click comes a little later
    writer.close()
    return waits


async def repeat(
    port: int,
    games: Sequence[tuple[ReviewSetup, list[GameEvent]]],
    args: argparse.Namespace,
    reviewing: bool,
) -> Repeat:
    done = 0
    stop = asyncio.Event()

    async def keep_reviewing() -> None:
        nonlocal done
        while not stop.is_set():
            setup, events = games[done % len(games)]
            await run_in(REVIEWS, REVIEWER.review, setup, events)
            done += 1

    reviews = asyncio.create_task(keep_reviewing()) if reviewing else None
    began = time.perf_counter()
    waits = await clicks(port, args.clicks, args.requests)
    elapsed = time.perf_counter() - began
    stop.set()
    if reviews is not None:
        await reviews
    return Repeat(waits, done / elapsed)


def played_games(count: int) -> list[tuple[ReviewSetup, list[GameEvent]]]:
    rng = random.Random(1)
    levels = [Level.NORMAL, Level.HARD, Level.EASY, Level.NORMAL]
    return [played_game(levels, rng, Rules(), first=game) for game in range(count)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=positive, default=150, help="clicks a repeat")
    parser.add_argument("--requests", type=positive, default=12, help="requests a click")
    parser.add_argument("--repeats", type=positive, default=5)
    args = parser.parse_args(argv)
    warm_up()  # as the bot's start-up does
    games = played_games(GAMES)
    spawn = multiprocessing.get_context("spawn")
    port: Queue[int] = spawn.Queue()
    server = spawn.Process(target=answer_at_once, args=(port,), daemon=True)
    server.start()
    address = port.get()
    settings = (
        ("no review", PYTHON_DEFAULT_INTERVAL, False),
        ("review, Python's 5 ms", PYTHON_DEFAULT_INTERVAL, True),
        (f"review, the bot's {SWITCH_INTERVAL_SECONDS * 1000:g} ms", SWITCH_INTERVAL_SECONDS, True),
    )
    print(
        f"bench_loop_wait: {args.clicks} clicks of {args.requests} requests a repeat,"
        f" {args.repeats} repeats (medians); 4-player Pickomino games reviewed in the review thread"
    )
    print(f"{'':<28} {'click p50':>10} {'click p99':>10} {'reviews/s':>10}")
    previous = sys.getswitchinterval()
    try:
        for name, interval, reviewing in settings:
            sys.setswitchinterval(interval)
            runs = [
                asyncio.run(repeat(address, games, args, reviewing)) for _ in range(args.repeats)
            ]
            p50 = statistics.median(percentile(run.click_ms, 0.5) for run in runs)
            p99 = statistics.median(percentile(run.click_ms, 0.99) for run in runs)
            rate = statistics.median(run.reviews_per_second for run in runs)
            reviews = f"{rate:10.2f}" if reviewing else f"{'':>10}"
            print(f"{name:<28} {p50:8.1f}ms {p99:8.1f}ms {reviews}")
    finally:
        sys.setswitchinterval(previous)
        server.kill()


if __name__ == "__main__":
    main()
