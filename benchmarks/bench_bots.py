"""Benchmark the computer players: Hard against Easy and against Normal.

Usage: python benchmarks/bench_bots.py [--games N] [--seed S] [--workers W]

Plays N two-player games per pairing, alternating who starts, each game seeded from
S and its number, and prints Hard's win rate with a 95% Wilson interval. A shared
first place (both players without tiles) counts as a draw, not a win.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat

from bot.games.pickomino.ai.players import Level, RollDice, decide
from bot.games.pickomino.engine import Game

Z_95 = 1.959964


def play(seed: int, opponent: Level) -> str:
    """One seeded game of Hard against `opponent`: "win", "draw" or "loss" for Hard."""
    rng = random.Random(seed)
    levels = {"hard": Level.HARD, "other": opponent}
    game = Game(["hard", "other"], first=seed % 2)
    while not game.is_over:
        decision = decide(game, levels[game.current_player])
        if isinstance(decision, RollDice):
            game.roll_with(rng)
        else:
            game.apply(decision)
    winners = [standing.player for standing in game.standings() if standing.rank == 1]
    if len(winners) > 1:
        return "draw"
    return "win" if winners == ["hard"] else "loss"


def wilson(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion."""
    rate = successes / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    return centre - half / denominator, centre + half / denominator


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    seeds = range(args.seed * 1_000_000, args.seed * 1_000_000 + args.games)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for opponent in (Level.EASY, Level.NORMAL):
            results = list(pool.map(play, seeds, repeat(opponent), chunksize=50))
            wins, draws = results.count("win"), results.count("draw")
            low, high = wilson(wins, len(results))
            print(
                f"hard vs {opponent.value:<6}: {wins}/{len(results)} wins "
                f"({wins / len(results):.1%}, 95% CI {low:.1%} to {high:.1%}), "
                f"{draws} draws"
            )
    print(
        f"{2 * args.games} games in {time.perf_counter() - started:.1f} s "
        f"with {args.workers} workers"
    )


if __name__ == "__main__":
    main()
