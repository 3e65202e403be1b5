"""Measure what each Extrawurm specialist is worth, for ai/extrawurm.py's WORTH table.

Usage: python -m tools.fitting.specialist_worth [--games N] [--seed S] [--every K]
                                                [--workers W]

Plays N two-player Extrawurm games of Normal against Normal and measures:

- per turn: at the start of every K-th turn, the solver's expected turn value for the
  mover (score gained, tiles lost on a failure; specialist worths set to 0) holding
  each specialist, against the same position holding none: what holding it brings in
  one own turn (the Golden Die's ninth die, the Weasel's second roll, the Canned
  Worm's stops without a worm, the Hen's saved tile on a failure);
- turns held: for each time a player gains a specialist, the own turns they start
  holding it before it goes back or the game ends;
- turns per tile: game turns per tile of 21-36 (the game ends when all 16 are gone).

It prints the figures and the WORTH lines to paste. A specialist's worth is then
per_turn x min(turns held, own turns the game has left).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat

from benchmarks.support.arguments import positive
from bot.games.pickomino.ai import extrawurm
from bot.games.pickomino.ai.extrawurm import Worth, turn_table
from bot.games.pickomino.ai.extrawurm_solver import solve, state_of
from bot.games.pickomino.ai.players import Level, carry_out, decide
from bot.games.pickomino.ai.position import Objective
from bot.games.pickomino.engine import Game, Rules, Specialist
from bot.games.pickomino.engine.tiles import ALL_TILES

HELD = (Specialist.CANNED_WORM, Specialist.HEN, Specialist.WEASEL, Specialist.GOLDEN_DIE)
ZERO = {specialist: Worth(0.0, 0.0) for specialist in Specialist}


def turn_value(game: Game) -> float:
    """The mover's expected turn value from the start of the turn (Normal's objective)."""
    table = turn_table(game, Objective.WORMS)
    return solve(table.rewards).value(state_of([], game.turn_dice), weasel=True)


def holding(game: Game, specialist: Specialist | None) -> Game:
    """The same position at the start of the mover's turn, the mover holding only
    `specialist` (taken from wherever it is; their own one set aside)."""
    copy = game.copy()
    assert copy.expansion is not None
    mover = copy.current_player
    for held, place in copy.expansion.specialists.items():
        if place == mover:
            copy.expansion.specialists[held] = None
    if specialist is not None:
        copy.expansion.specialists[specialist] = mover
    copy.turn_dice = 9 if specialist is Specialist.GOLDEN_DIE else 8
    return copy


def gains(game: Game) -> dict[Specialist, float]:
    saved = extrawurm.WORTH
    extrawurm.WORTH = ZERO
    extrawurm._TABLES.clear()  # its tables were valued with the real worths
    try:
        base = turn_value(holding(game, None))
        return {s: turn_value(holding(game, s)) - base for s in HELD}
    finally:
        extrawurm.WORTH = saved
        extrawurm._TABLES.clear()


def play(
    seed: int, every: int
) -> tuple[dict[Specialist, list[float]], dict[Specialist, list[int]], int]:
    rng = random.Random(seed)
    game = Game(["a", "b"], Rules(extrawurm=True), first=seed % 2)
    assert game.expansion is not None
    per_turn: dict[Specialist, list[float]] = defaultdict(list)
    held_for: dict[Specialist, list[int]] = defaultdict(list)
    open_holds: dict[Specialist, tuple[str, int]] = {}  # specialist -> (holder, own turns)
    turns = 0
    while not game.is_over:
        turns += 1
        mover = game.current_player
        for specialist, (holder, count) in list(open_holds.items()):
            if game.expansion.specialists[specialist] != holder:
                held_for[specialist].append(count)
                del open_holds[specialist]
        for specialist in HELD:
            place = game.expansion.specialists[specialist]
            if isinstance(place, str) and specialist not in open_holds:
                open_holds[specialist] = (place, 0)
            if place == mover:
                holder, count = open_holds[specialist]
                open_holds[specialist] = (holder, count + 1)
        if turns % every == 0:
            for specialist, gain in gains(game).items():
                per_turn[specialist].append(gain)
        turn = game.turn_number
        while game.turn_number == turn and not game.is_over:
            decision = decide(game, Level.NORMAL)
            carry_out(game, decision, rng)
    for specialist, (_, count) in open_holds.items():
        held_for[specialist].append(count)
    return dict(per_turn), dict(held_for), turns


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=positive, default=2, help="measure every K-th turn")
    parser.add_argument("--workers", type=positive, default=2)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    seeds = range(args.seed * 1_000_000, args.seed * 1_000_000 + args.games)
    per_turn: dict[Specialist, list[float]] = defaultdict(list)
    held_for: dict[Specialist, list[int]] = defaultdict(list)
    turns: list[int] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for gained, held, count in pool.map(play, seeds, repeat(args.every), chunksize=4):
            for specialist, values in gained.items():
                per_turn[specialist].extend(values)
            for specialist, counts in held.items():
                held_for[specialist].extend(counts)
            turns.append(count)
    turns_per_tile = statistics.mean(turns) / len(ALL_TILES)
    print(f"{args.games} games, {statistics.mean(turns):.1f} turns a game")
    print(f"TURNS_PER_TILE = {turns_per_tile:.2f}")
    for specialist in HELD:
        gain = statistics.mean(per_turn[specialist])
        held = statistics.mean(held_for[specialist]) if held_for[specialist] else 0.0
        print(
            f"    Specialist.{specialist.name}: Worth(per_turn={gain:.2f}, turns={held:.1f}),"
            f"  # {len(per_turn[specialist])} turns, {len(held_for[specialist])} holds,"
            f" worth {gain * held:.2f}"
        )
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
