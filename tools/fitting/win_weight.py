"""Choose Hard's blend at three or more players: ai/outlook.py's WIN_WEIGHT.

Usage: python -m tools.fitting.win_weight [--weights W ...] [--games N] [--players P]
                                          [--seed S] [--extrawurm] [--workers W]

With three or more players Hard plays for WIN_WEIGHT of its chance to win plus the
rest of the share of opponents it finishes ahead of (outlook.Standing.value). For each
weight (default 1.0, 0.8 and 0.5) this plays N games (default 2,000) of Hard against
P - 1 Normals (four seats by default; base game, or Extrawurm), in paired deals as
benchmarks/bench_bots.py plays them: a deal once from every seat, each turn rolling
from the deal's own stream, so every weight meets the same dice. It prints, per weight,
Hard's share of first places (1/k for a place shared by k) and of opponents beaten (a
shared place half), each with a 95% interval over deals, and each weight's difference
from the first weight, deal by deal.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat

from benchmarks.support.arguments import positive
from benchmarks.support.stats import (
    deal_interval,
    deal_means,
    first_place_share,
    mean_interval,
    opponents_beaten,
)
from bot.games.pickomino.ai import outlook
from bot.games.pickomino.ai.players import Level, carry_out, decide
from bot.games.pickomino.engine import Game, Rules
from bot.games.pickomino.engine.game import PLAYER_COUNTS

DEFAULT_WEIGHTS = (1.0, 0.8, 0.5)


def weigh(weight: float) -> None:
    """A worker's WIN_WEIGHT (each weight plays in processes of its own: the memos
    hold values of the weight they were made with)."""
    outlook.WIN_WEIGHT = weight


def play(number: int, seats: int, extrawurm: bool) -> tuple[float, float]:
    """Game `number` (of deal number // seats, Hard in seat number % seats): Hard's
    share of first place and of opponents beaten."""
    deal, seat = divmod(number, seats)
    names = [f"s{place}" for place in range(seats)]
    hard = names[seat]
    game = Game(names, Rules(extrawurm=extrawurm), first=0)
    turn, rng = -1, random.Random()
    while not game.is_over:
        if game.turn_number != turn:
            turn = game.turn_number
            rng = random.Random(f"{deal}:{turn}")
        level = Level.HARD if game.current_player == hard else Level.NORMAL
        carry_out(game, decide(game, level), rng)
    standings = game.standings()
    return first_place_share(standings, hard), opponents_beaten(standings, hard)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=float, nargs="+", default=list(DEFAULT_WEIGHTS))
    parser.add_argument("--games", type=positive, default=2000)
    parser.add_argument(
        "--players", type=int, choices=[n for n in PLAYER_COUNTS if n > 2], default=4
    )
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--extrawurm", action="store_true")
    parser.add_argument("--workers", type=positive, default=2)
    args = parser.parse_args(argv)
    if not all(0.0 <= weight <= 1.0 for weight in args.weights):
        parser.error("--weights: each from 0 to 1")
    seats = args.players
    first = args.seed * 1_000_000 // 420 * 420  # whole deals at every table size
    numbers = range(first, first + args.games // seats * seats)
    if not numbers:
        parser.error(f"--games: at least {seats}, one deal")
    started = time.perf_counter()
    rules = "Extrawurm" if args.extrawurm else "base"
    print(f"{len(numbers)} {rules} games a weight: Hard against {seats - 1} Normals, paired deals")
    print("weight  first places  95% CI          beaten  95% CI          vs the first weight")
    base: tuple[list[float], list[float]] | None = None
    for weight in args.weights:
        with ProcessPoolExecutor(args.workers, initializer=weigh, initargs=(weight,)) as pool:
            games = list(
                pool.map(play, numbers, repeat(seats), repeat(args.extrawurm), chunksize=8)
            )
            wins = deal_means([won for won, _ in games], seats)
            beaten = deal_means([ahead for _, ahead in games], seats)
            line = f"{weight:6.2f}  {_share(wins)}  {_share(beaten)}"
            if base is None:
                base = wins, beaten
            elif len(wins) > 1:
                line += (
                    f"  first {_difference(wins, base[0])}, beaten {_difference(beaten, base[1])}"
                )
            print(line, flush=True)
    print(f"{time.perf_counter() - started:.0f} s with {args.workers} workers")


def _share(deals: list[float]) -> str:
    low, high = deal_interval(deals)
    return f"{sum(deals) / len(deals):6.1%}  {low:5.1%} to {high:5.1%}"


def _difference(deals: list[float], base: list[float]) -> str:
    differences = [mine - theirs for mine, theirs in zip(deals, base, strict=True)]
    low, high = mean_interval(differences)
    return f"{sum(differences) / len(differences):+.1%} [{low:+.1%}, {high:+.1%}]"


if __name__ == "__main__":
    main()
