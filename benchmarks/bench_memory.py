"""Benchmark: how much memory the work of a game's end leaves a process holding.

Usage: python -m benchmarks.bench_memory [--work reviews|extrawurm|pictures]
       [--games 240] [--threads 1]

Reviews (bot.games.pickomino.review) of computer games of 2 to 4 players, base or half
with Extrawurm, or end pictures of 2 to 7 players, done `--threads` at a time in a pool
of that many threads, as the bot's worker threads do them. Prints the process's RSS
before and after every 40 games: caches with bounds level off, a leak keeps climbing.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from benchmarks.bench_pictures import sample_game
from benchmarks.bench_review import levels_for, timed_review
from benchmarks.support import procfs
from benchmarks.support.arguments import positive
from bot.games.pickomino.ai import warm_up
from bot.games.pickomino.end_picture import draw_end_picture
from bot.games.pickomino.engine import Rules

REPORT_EVERY = 40


def rss_mb() -> float:
    """This process's resident memory (support.procfs, as bench_soak reads its bots)."""
    return procfs.rss_mb(os.getpid())


def work_of(kind: str, rng: random.Random) -> Callable[[int], object]:
    """What one game's end does, for game number `game`."""
    if kind == "pictures":
        return lambda game: draw_end_picture(sample_game(2 + game % 6, seed=game))

    def review(game: int) -> object:
        rules = Rules(extrawurm=kind == "extrawurm" and game % 2 == 1)
        return timed_review(levels_for(2 + game % 3, game), rng, rules, game)

    return review


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", choices=("reviews", "extrawurm", "pictures"), default="reviews")
    parser.add_argument("--games", type=positive, default=240)
    parser.add_argument("--threads", type=positive, default=1)
    options = parser.parse_args(argv)
    if options.work != "pictures":
        warm_up()  # as the bot's start-up does: its solver tables are not the games' cost
    work = work_of(options.work, random.Random(1))
    print(f"{options.work}, {options.threads} thread(s): start {rss_mb():.0f} MB", flush=True)
    reported = 0
    with ThreadPoolExecutor(options.threads) as pool:
        for first in range(0, options.games, options.threads):
            batch = range(first, min(first + options.threads, options.games))
            for done in [pool.submit(work, game) for game in batch]:
                done.result()
            finished = batch[-1] + 1
            if finished // REPORT_EVERY > reported or finished == options.games:
                reported = finished // REPORT_EVERY
                gc.collect()
                print(f"{finished} games: {rss_mb():.0f} MB", flush=True)


if __name__ == "__main__":
    main()
