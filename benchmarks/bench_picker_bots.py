"""Benchmark Picker's computer players: Hard against Normals, at 3 and 5 players.

Usage: python -m benchmarks.bench_picker_bots [--games N] [--five N] [--seed S] [--workers W]
                                              [--ceiling]

Each game seats one Hard and Normals, Hard's seat rotating through every seat and the
first player drawn from the game's seeded rng. Prints Hard's share of wins with a 95%
Wilson interval (a first place shared by k players counts 1/k), and each level's
decision time p50/p99: the CPU time of the deciding thread (what one idle core would
take) and the wall clock (which other load on the machine inflates). `--ceiling` also
prints the best share any player can reach against two Normals, computed exactly by
benchmarks/picker_ceiling.py (about 20 s of CPU): 41.0%, below the issue's 45%.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat

from benchmarks.picker_ceiling import ceiling, solve
from benchmarks.stats import percentile, wilson
from bot.games.picker.ai import Level, decide
from bot.games.picker.engine import Game

TARGET_SHARE_3 = 0.45  # the target for Hard against two Normals (a fair share is
# 1/3); out of reach: no player wins more than 41.0% of those games (--ceiling)
TARGET_P99_MS = 50.0


Times = dict[str, list[tuple[float, float]]]  # by level: (CPU, wall) seconds a decision


def play(seed: int, players: int) -> tuple[float, Times]:
    """One seeded game of Hard against Normals: Hard's share of first place, and the
    seconds each decision took, by level."""
    rng = random.Random(seed)
    hard_seat = seed % players
    names = [f"seat{seat}" for seat in range(players)]
    levels = [Level.HARD if seat == hard_seat else Level.NORMAL for seat in range(players)]
    game = Game(names, first=rng.randrange(players), computer=names)
    times: Times = defaultdict(list)
    while not game.is_over:
        if game.legal_actions().can_roll:
            game.roll_with(rng)
            continue
        level = levels[game.current]
        cpu, wall = time.thread_time(), time.perf_counter()
        pick = decide(game, level, rng)
        times[level.value].append((time.thread_time() - cpu, time.perf_counter() - wall))
        game.apply(pick)
    winners = [s.player for s in game.standings() if s.rank == 1]
    share = 1 / len(winners) if names[hard_seat] in winners else 0.0
    return share, times


def report(players: int, results: list[tuple[float, Times]]) -> None:
    shares = sum(share for share, _ in results)
    low, high = wilson(shares, len(results))
    print(
        f"{players} players, hard vs {players - 1} normal: hard wins {shares:.1f}/{len(results)} "
        f"({shares / len(results):.1%}, 95% CI {low:.1%} to {high:.1%}; "
        f"fair share {1 / players:.1%})"
    )
    by_level: Times = defaultdict(list)
    for _, times in results:
        for level, seconds in times.items():
            by_level[level].extend(seconds)
    for level, pairs in sorted(by_level.items()):
        cpu = sorted(pair[0] for pair in pairs)
        wall = sorted(pair[1] for pair in pairs)
        print(
            f"  {level:<6} decision ms: CPU p50 {_ms(cpu, 0.5)}, p99 {_ms(cpu, 0.99)}; "
            f"wall p50 {_ms(wall, 0.5)}, p99 {_ms(wall, 0.99)} ({len(pairs)} decisions)"
        )


def _ms(sorted_seconds: list[float], fraction: float) -> str:
    return f"{percentile(sorted_seconds, fraction) * 1000:5.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="3-player games")
    parser.add_argument("--five", type=int, default=300, help="5-player games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--ceiling", action="store_true", help="also the exact best share of 3-player games"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for players, games in ((3, args.games), (5, args.five)):
            if games < 1:
                continue
            seeds = range(args.seed * 1_000_000, args.seed * 1_000_000 + games)
            report(players, list(pool.map(play, seeds, repeat(players), chunksize=10)))
            if players == 3 and args.ceiling:
                best = ceiling(solve())
                print(
                    f"  best possible against 2 normal (exact): {sum(best) / len(best):.1%}; "
                    f"target {TARGET_SHARE_3:.0%}"
                )
    print(f"in {time.perf_counter() - started:.1f} s with {args.workers} workers")


if __name__ == "__main__":
    main()
