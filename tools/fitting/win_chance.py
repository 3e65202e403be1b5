"""Fit Hard's win-chance model (bot/games/pickomino/ai/outlook.py) from self-play.

Usage: python -m tools.fitting.win_chance [--games N] [--players P] [--seed S]
                                          [--workers W] [--bot NAME]

Plays N games of P seats of one bot (a baseline of benchmarks/support/baselines.py, or
"hard"), and at the end of every turn that does not end the game records, for the
player who just moved and each opponent, the worm gap between them, who holds the
higher single tile (the tie-break), the worms still face up on the grill, and who
finished ahead of whom (1, 0 or a half for a shared place). It then fits

    P(ahead of that opponent at the end) = 1 / (1 + exp(-(a * gap / (grill + c) ** e + b)))

where gap is the worm gap plus `tie` times the tie-break (+1, 0 or -1), by maximum
likelihood: Newton's method on a and b for each c, e and tie on a grid (e is 0.5, a
square root, unless --powers lists others), keeping the best log-likelihood. It
prints the constants to paste into outlook.py (TWO_PLAYERS or MORE_PLAYERS) and the
fit's log-loss against a coin flip. `--save FILE` keeps the samples (JSON) and
`--load FILE` fits saved samples again without playing.

The constants in outlook.py came from `--games 1500` (two players) and
`--games 500 --players 4`, seed 7, OptimalBot self-play.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from itertools import product, repeat
from pathlib import Path

from benchmarks.support.arguments import positive
from benchmarks.support.baselines import BASELINES
from bot.games.pickomino.ai.players import Level, RollDice, decide
from bot.games.pickomino.engine import Game, worms
from bot.games.pickomino.engine.game import PLAYER_COUNTS

C_GRID = tuple(range(0, 41, 2))
TIE_GRID = (0.0, 0.25, 0.5, 0.75)
NEWTON_STEPS = 12

# (gap, tie-break sign, grill worms) -> [samples, sum of outcomes]
Buckets = Counter[tuple[int, int, int, float]]


def play(seed: int, players: int, bot: str) -> Buckets:
    """One self-play game; the pairwise samples of every turn end, bucketed."""
    rng = random.Random(seed)
    names = [f"p{seat}" for seat in range(players)]
    game = Game(names, first=seed % players)
    ends: list[tuple[str, dict[str, tuple[int, int]], int]] = []
    while not game.is_over:
        mover, turn = game.current_player, game.turn_number
        decision = decide(game, Level.HARD) if bot == "hard" else BASELINES[bot](game)
        if isinstance(decision, RollDice):
            game.roll_with(rng)
        else:
            game.apply(decision)
        if game.turn_number != turn and not game.is_over:
            strengths = {
                name: (game.score(name), max(game.stacks[name], default=0)) for name in names
            }
            ends.append((mover, strengths, sum(worms(tile) for tile in game.grill)))
    final = {name: (game.score(name), max(game.stacks[name], default=0)) for name in names}
    buckets: Buckets = Counter()
    for mover, strengths, grill in ends:
        for other in names:
            if other == mover:
                continue
            gap = strengths[mover][0] - strengths[other][0]
            tie = _sign(strengths[mover][1] - strengths[other][1])
            outcome = 0.5 if final[mover] == final[other] else float(final[mover] > final[other])
            buckets[(gap, tie, grill, outcome)] += 1
    return buckets


Fit = tuple[float, float, float, float, float, float]  # a, b, c, e, tie, log-loss


def fit(buckets: Buckets, powers: tuple[float, ...] = (0.5,)) -> Fit:
    """The best (a, b, c, e, tie) on the grid (e among `powers`) and its mean log-loss."""
    best: Fit | None = None
    for c, power, tie in product(C_GRID, powers, TIE_GRID):
        rows = [
            ((gap + tie * sign) / (grill + c) ** power, outcome, count)
            for (gap, sign, grill, outcome), count in buckets.items()
        ]
        a, b = _newton(rows)
        loss = _log_loss(rows, a, b)
        if best is None or loss < best[5]:
            best = (a, b, float(c), power, tie, loss)
    assert best is not None
    return best


def _newton(rows: list[tuple[float, float, int]]) -> tuple[float, float]:
    a = b = 0.0
    for _ in range(NEWTON_STEPS):
        ga = gb = haa = hab = hbb = 0.0
        for x, y, n in rows:
            p = 1 / (1 + math.exp(-(a * x + b)))
            ga += n * (y - p) * x
            gb += n * (y - p)
            w = n * p * (1 - p)
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        a += (hbb * ga - hab * gb) / det
        b += (haa * gb - hab * ga) / det
    return a, b


def _log_loss(rows: list[tuple[float, float, int]], a: float, b: float) -> float:
    total = count = 0.0
    for x, y, n in rows:
        p = min(max(1 / (1 + math.exp(-(a * x + b))), 1e-12), 1 - 1e-12)
        total -= n * (y * math.log(p) + (1 - y) * math.log(1 - p))
        count += n
    return total / count


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive, default=3000)
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=positive, default=2)
    parser.add_argument("--bot", default="optimal_bot", choices=[*BASELINES, "hard"])
    parser.add_argument("--save", type=Path, help="write the samples to this JSON file")
    parser.add_argument("--load", type=Path, help="fit the samples of this file, no games")
    parser.add_argument(
        "--powers", type=float, nargs="+", default=[0.5], help="powers e to try (default 0.5)"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    buckets: Buckets = Counter()
    if args.load:
        rows = json.loads(args.load.read_text())
        buckets.update({(gap, sign, grill, outcome): n for gap, sign, grill, outcome, n in rows})
    else:
        seeds = range(args.seed * 1_000_000, args.seed * 1_000_000 + args.games)
        with ProcessPoolExecutor(args.workers) as pool:
            games = pool.map(play, seeds, repeat(args.players), repeat(args.bot), chunksize=20)
            for game in games:
                buckets.update(game)
        print(f"{args.games} games of {args.players} x {args.bot}")
    if args.save:
        args.save.write_text(json.dumps([[*key, n] for key, n in buckets.items()]))
    a, b, c, power, tie, loss = fit(buckets, tuple(args.powers))
    print(f"{sum(buckets.values())} samples, {time.perf_counter() - started:.0f} s")
    print(
        f"FitConstants(scale={a:.4f}, offset={b:.4f}, grill_shift={c:.1f}, "
        f"power={power}, tie_break={tie})"
    )
    print(f"log-loss {loss:.4f} (a coin flip: {math.log(2):.4f})")


if __name__ == "__main__":
    main()
