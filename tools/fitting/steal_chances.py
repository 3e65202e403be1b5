"""Measure how often an opponent's turn steals a top tile, for ai/outlook.py's STEALS.

Usage: python -m tools.fitting.steal_chances [--games N] [--players P] [--seed S]
                                             [--extrawurm] [--workers W]

Plays N games of P Normal players (four by default), base game or Extrawurm, and
follows every top tile a turn leaves on its mover's stack until the mover's next turn:
each opponent's turn it faces is one exposure, and a turn that takes it (an exact total)
is one steal. It prints, per tile of 21-36, the exposures, the steals and their ratio,
the chance that one opponent's turn steals that tile, then the dict to paste. A top
tile under the Sitting Hen is not counted: a steal there takes the Hen, not the tile.

With three or more players Hard weighs each end of its turn by these chances: in
four-player games a top tile of 21-26 is taken before its owner moves again about a
third of the time, a swing of its worms from the mover to the thief that the
pairwise model, which reads only scores, does not see.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat

from benchmarks.support.arguments import positive
from bot.games.pickomino.ai.players import Level, carry_out, decide
from bot.games.pickomino.engine import Game, Rules, Specialist
from bot.games.pickomino.engine.game import PLAYER_COUNTS
from bot.games.pickomino.engine.tiles import ALL_TILES

Tally = tuple[Counter[int], Counter[int]]  # exposures, steals (per tile)


def play(seed: int, players: int, extrawurm: bool) -> Tally:
    """One game of Normal self-play: every top tile's exposures and steals."""
    rng = random.Random(seed)
    names = [f"p{seat}" for seat in range(players)]
    game = Game(names, Rules(extrawurm=extrawurm), first=seed % players)
    exposures: Counter[int] = Counter()
    steals: Counter[int] = Counter()
    watched: dict[str, tuple[int, int]] = {}  # owner -> (top tile, stack height)
    while not game.is_over:
        mover, turn = game.current_player, game.turn_number
        while game.turn_number == turn and not game.is_over:
            carry_out(game, decide(game, Level.NORMAL), rng)
        for owner, (tile, height) in list(watched.items()):
            if owner == mover:
                continue
            exposures[tile] += 1
            if len(game.stacks[owner]) < height:  # only a steal shrinks another's stack
                steals[tile] += 1
                del watched[owner]
        watched.pop(mover, None)
        stack = game.stacks[mover]
        if stack and not game.is_over and not _hen_holder(game, mover):
            watched[mover] = (stack[-1], len(stack))
    return exposures, steals


def _hen_holder(game: Game, player: str) -> bool:
    return game.expansion is not None and game.expansion.holds(player, Specialist.HEN)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive, default=400)
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--extrawurm", action="store_true")
    parser.add_argument("--workers", type=positive, default=2)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    seeds = range(args.seed * 1_000_000, args.seed * 1_000_000 + args.games)
    exposures: Counter[int] = Counter()
    steals: Counter[int] = Counter()
    with ProcessPoolExecutor(args.workers) as pool:
        tallies = pool.map(play, seeds, repeat(args.players), repeat(args.extrawurm), chunksize=4)
        for faced, taken in tallies:
            exposures.update(faced)
            steals.update(taken)
    game = "Extrawurm" if args.extrawurm else "base game"
    print(f"{args.games} {game} games of {args.players} Normal players")
    print("tile  exposures  steals  chance a turn")
    chances = {}
    for tile in ALL_TILES:
        chances[tile] = steals[tile] / exposures[tile] if exposures[tile] else 0.0
        print(f"{tile:>4}  {exposures[tile]:>9}  {steals[tile]:>6}  {chances[tile]:.3f}")
    print("{" + ", ".join(f"{tile}: {chance:.3f}" for tile, chance in chances.items()) + "}")
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
