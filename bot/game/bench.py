"""Benchmark: play N complete random games and print games and actions per second.

Usage: python -m bot.game.bench [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from bot.game.pickomino import Claim, Face, Game, Keep, Phase
from bot.game.pickomino.dice import roll_dice

PLAYERS = ("anne", "bridget", "thomas")


def play_random_game(rng: random.Random, players: tuple[str, ...] = PLAYERS) -> int:
    """Play one game of random legal choices; return how many actions it took.

    The choices are random but not absurd, so games last about as many turns as
    people's do (~40 for three players): a worm is kept when it first shows, any
    other face at random, and a possible claim is taken four times in five.
    """
    game = Game(players, first=rng.randrange(len(players)))
    actions = 0
    while not game.is_over:
        keepable = game.keepable_faces()
        if keepable:
            wants_worm = Face.WORM in keepable
            game.apply(Keep(Face.WORM if wants_worm else rng.choice(keepable)))
        else:
            claims = game.claim_options()
            if claims and (game.phase is Phase.CLAIM or rng.random() < 0.8):
                game.apply(Claim(rng.choice(claims)))
            else:
                game.roll_with(rng)
        actions += 1
    return actions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    roll_dice(rng, 8)  # warm up
    started = time.perf_counter()
    actions = sum(play_random_game(rng) for _ in range(args.games))
    elapsed = time.perf_counter() - started
    print(f"games: {args.games}, actions: {actions}, seconds: {elapsed:.3f}")
    print(f"games per second: {args.games / elapsed:,.0f}")
    print(f"actions per second: {actions / elapsed:,.0f}")


if __name__ == "__main__":
    main()
