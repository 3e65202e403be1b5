"""Benchmark: play N complete random games and print games and actions per second.

Usage: python -m bot.games.pickomino.bench [--games N] [--seed S] [--players P] [--extrawurm]
"""

from __future__ import annotations

import argparse
import random
import time

from bot.games.pickomino.engine import Claim, Event, Face, Game, Keep, Phase, Rules
from bot.games.pickomino.engine.game import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNTS

PLAYERS = ("anne", "bridget", "thomas")
TARGET_GAMES_PER_SECOND = 1000  # with three players, on one core

# Enum member lookups cost ~110 ns on 3.11; the loop below reads these aliases.
WORM = Face.WORM
CLAIM = Phase.CLAIM
NO_NEW_FACE = Phase.NO_NEW_FACE


def sensible_random_step(game: Game, rng: random.Random) -> list[Event]:
    """One random but not absurd move for the player to move, and what it caused.

    Games played this way last about as many turns as people's do (~40 for three
    players): a worm is kept when it first shows, any other face at random, and a
    possible claim is taken four times in five. History tests and benchmarks use it
    too, so their event streams look like real games. With Extrawurm, the Weasel saves
    a roll with no new face whenever it can.
    """
    keepable = game.keepable_faces()
    if keepable:
        return game.apply(Keep(WORM if WORM in keepable else rng.choice(keepable)))
    claims = game.claim_options()
    if claims and (game.phase is CLAIM or rng.random() < 0.8):
        return game.apply(Claim(rng.choice(claims)))
    if game.phase is NO_NEW_FACE:
        return game.weasel_with(rng)
    return game.roll_with(rng)


def play_random_game(
    rng: random.Random, players: tuple[str, ...] = PLAYERS, rules: Rules | None = None
) -> int:
    """Play one game of sensible random moves; return how many actions it took."""
    game = Game(players, rules, first=rng.randrange(len(players)))
    actions = 0
    while not game.is_over:
        sensible_random_step(game, rng)
        actions += 1
    return actions


def seat_names(count: int) -> tuple[str, ...]:
    """The three usual names, then player4, player5... for bigger tables."""
    extra = (f"player{seat}" for seat in range(len(PLAYERS) + 1, MAX_PLAYERS + 1))
    return (*PLAYERS, *extra)[:count]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--players",
        type=int,
        default=len(PLAYERS),
        choices=PLAYER_COUNTS,
        metavar=f"{{{MIN_PLAYERS}..{MAX_PLAYERS}}}",
        help=f"players per game (default {len(PLAYERS)})",
    )
    parser.add_argument(
        "--extrawurm", action="store_true", help="play with the Extrawurm expansion"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    players = seat_names(args.players)
    rules = Rules(extrawurm=args.extrawurm)
    rng = random.Random(args.seed)
    play_random_game(random.Random(0), players, rules)  # warm up, off the measured rng
    started = time.perf_counter()
    actions = sum(play_random_game(rng, players, rules) for _ in range(args.games))
    elapsed = time.perf_counter() - started
    games_per_second = args.games / elapsed
    variant = " with Extrawurm" if args.extrawurm else ""
    print(
        f"{args.games} games of {args.players} players{variant}, {actions:,} actions "
        f"({actions / args.games:.0f} a game) in {elapsed:.3f} s"
    )
    print(f"games per second:   {games_per_second:9,.0f}")
    print(f"actions per second: {actions / elapsed:9,.0f}")
    if args.players == len(PLAYERS) and not args.extrawurm:
        verdict = "meets" if games_per_second >= TARGET_GAMES_PER_SECOND else "is below"
        print(f"(this {verdict} the target of {TARGET_GAMES_PER_SECOND:,} games per second)")


if __name__ == "__main__":
    main()
