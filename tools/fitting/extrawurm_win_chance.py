"""Fit the win-chance model (ai/outlook.py) on Extrawurm self-play, specialists included.

Usage: python -m tools.fitting.extrawurm_win_chance [--games N] [--players P] [--seed S]
                                                    [--workers W] [--bot LEVEL]
                                                    [--save FILE | --load FILE]

Plays N Extrawurm games of P seats of one level (Normal by default) and at the end of
every turn that does not end the game records, for the player who just moved and each
opponent: the score gap (worms on tiles, 11 and 13, Bratwurms), who holds the higher
single tile, the worms still face up on 21-36, the Bratwurms left in the supply (kept
in the samples, not in the fit: the supply is open to both), the specialist each of
the two holds, and who finished ahead of whom. It then fits, by
maximum likelihood (Newton's method on every coefficient at once),

    P(ahead) = sigma(scale * (gap + tie_break * higher
                              + sum over specialists of worth * (held by m - held by j)
                                * min(1, own turns left / turns))
                     / sqrt(grill + shift) + offset)

for the shift of the grill (c in sqrt(grill + c)) on a grid, and prints the constants
and the log-loss against a coin flip; the specialists' `turns` come from
tools.fitting.specialist_worth (ai/extrawurm.py's WORTH).

`--games 600` (seed 7, Normal self-play, 14,767 samples) gave scale 0.8084, offset
-0.1673, shift 0, tie-break 0.19 (outlook.py's two-player constants, fitted on the
base game: 0.7976, -0.1255, 0, 0.25) and worths of about 0.6 for the Canned Worm, 0.2
for the Hen, 1.5 for the Weasel and for the Golden Die, all with wide errors at this
size (ai/extrawurm.py's WORTH: 1.0, 0.9, 1.0, 1.7): Hard's model was not what held
its edge back, so the constants stay.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from pathlib import Path

import numpy as np

from benchmarks.support.arguments import positive
from bot.games.pickomino.ai.extrawurm import TURNS_PER_TILE, WORTH
from bot.games.pickomino.ai.players import Level, carry_out, decide
from bot.games.pickomino.engine import Game, Rules, Specialist, worms
from bot.games.pickomino.engine.game import PLAYER_COUNTS
from bot.games.pickomino.engine.tiles import LOWEST_TILE

HELD = (Specialist.CANNED_WORM, Specialist.HEN, Specialist.WEASEL, Specialist.GOLDEN_DIE)
C_GRID = (0, 2, 4, 6, 8, 12)
NEWTON_STEPS = 25

# gap, higher, grill worms, tiles left, supply, mover's specialist, other's, outcome
Sample = tuple[int, int, int, int, int, str, str, float]


def play(seed: int, players: int, level: str) -> list[Sample]:
    """One self-play game; the pairwise samples of every turn end."""
    rng = random.Random(seed)
    names = [f"p{seat}" for seat in range(players)]
    game = Game(names, Rules(extrawurm=True), first=seed % players)
    assert game.expansion is not None
    ends = []
    while not game.is_over:
        mover, turn = game.current_player, game.turn_number
        while game.turn_number == turn and not game.is_over:
            carry_out(game, decide(game, Level(level)), rng)
        if game.is_over:
            break
        strengths = {name: _strength(game, name) for name in names}
        stack_tiles = [tile for tile in game.grill if tile >= LOWEST_TILE]
        held = {name: str(game.specialist_of(name) or "") for name in names}
        grill = sum(map(worms, stack_tiles))
        ends.append((mover, strengths, grill, len(stack_tiles), game.expansion.supply, held))
    final = {name: _strength(game, name) for name in names}
    samples: list[Sample] = []
    for mover, strengths, grill, tiles, supply, held in ends:
        for other in names:
            if other == mover:
                continue
            gap = strengths[mover][0] - strengths[other][0]
            higher = _sign(strengths[mover][1] - strengths[other][1])
            outcome = 0.5 if final[mover] == final[other] else float(final[mover] > final[other])
            samples.append((gap, higher, grill, tiles, supply, held[mover], held[other], outcome))
    return samples


def _strength(game: Game, player: str) -> tuple[int, int]:
    return game.score(player), max(game.tiles_held(player), default=0)


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def features(samples: list[Sample], players: int, shift: float) -> np.ndarray:
    """Per sample: gap, higher, supply, each specialist's held difference (capped by
    the turns left), all over sqrt(grill + shift), then 1 for the offset."""
    rows = []
    for gap, higher, grill, tiles, _supply, mine, theirs, _ in samples:
        spread = 1 / math.sqrt(grill + shift)
        own_turns = tiles * TURNS_PER_TILE / players
        row = [gap * spread, higher * spread]
        for specialist in HELD:
            held = (mine == specialist) - (theirs == specialist)
            row.append(held * min(1.0, own_turns / WORTH[specialist].turns) * spread)
        rows.append([*row, 1.0])
    return np.array(rows)


def fit(samples: list[Sample], players: int) -> tuple[float, np.ndarray, float]:
    """The best shift on the grid, its coefficients and mean log-loss."""
    outcomes = np.array([sample[-1] for sample in samples])
    best: tuple[float, np.ndarray, float] | None = None
    for shift in C_GRID:
        x = features(samples, players, shift)
        weights = _newton(x, outcomes)
        loss = _log_loss(x, outcomes, weights)
        if best is None or loss < best[2]:
            best = (float(shift), weights, loss)
    assert best is not None
    return best


def _newton(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    weights = np.zeros(x.shape[1])
    ridge = 1e-6 * np.eye(x.shape[1])  # a specialist never held leaves a column of zeros
    for _ in range(NEWTON_STEPS):
        p = 1 / (1 + np.exp(-(x @ weights)))
        gradient = x.T @ (y - p)
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge
        weights += np.linalg.solve(hessian, gradient)
    return weights


def _log_loss(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-(x @ weights))), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive, default=1000)
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=positive, default=2)
    parser.add_argument("--bot", default="normal", choices=["normal", "hard"])
    parser.add_argument("--save", type=Path, help="write the samples to this JSON file")
    parser.add_argument("--load", type=Path, help="fit the samples of this file, no games")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    samples: list[Sample] = []
    if args.load:
        samples = [tuple(row) for row in json.loads(args.load.read_text())]  # type: ignore[misc]
    else:
        seeds = range(args.seed * 1_000_000, args.seed * 1_000_000 + args.games)
        with ProcessPoolExecutor(args.workers) as pool:
            for game in pool.map(play, seeds, repeat(args.players), repeat(args.bot), chunksize=4):
                samples += game
        print(f"{args.games} Extrawurm games of {args.players} x {args.bot}")
    if args.save:
        args.save.write_text(json.dumps(samples))
    shift, weights, loss = fit(samples, args.players)
    scale = weights[0]
    print(f"{len(samples)} samples, {time.perf_counter() - started:.0f} s")
    worths = ", ".join(
        f"Specialist.{specialist.name}: {weights[2 + i] / scale:.3f}"
        for i, specialist in enumerate(HELD)
    )
    print(
        f"ExtrawurmFit(scale={scale:.4f}, offset={weights[-1]:.4f}, grill_shift={shift:.1f}, "
        f"tie_break={weights[1] / scale:.3f}, "
        f"worths={{{worths}}})"
    )
    print(f"log-loss {loss:.4f} (a coin flip: {math.log(2):.4f})")


if __name__ == "__main__":
    main()
