"""Benchmark: complete random Picker games per second on one core.

Usage: python -m bot.games.picker.bench [--games N] [--players P] [--repeats R] [--seed S]

CPU time of this process (time.process_time), so other load on the machine
counts little. Each game rolls with the seeded rng and keeps a random die on every turn. The figure
printed is the median of the repeats.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.games.picker.engine import MAX_PLAYERS, MIN_PLAYERS, Game, Pick

TARGET_GAMES_PER_SECOND = 5000  # with four players, on one core
DEFAULT_PLAYERS = 4


def play_random_game(rng: random.Random, players: int) -> int:
    """Play one game keeping random dice; return how many actions it took."""
    game = Game([f"p{seat}" for seat in range(players)], first=rng.randrange(players))
    actions = 0
    while not game.is_over:
        game.roll_with(rng)
        for _ in range(players):
            game.apply(Pick(rng.choice(game.available())))
        actions += players + 1
    return actions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--players",
        type=int,
        default=DEFAULT_PLAYERS,
        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
        metavar=f"{{{MIN_PLAYERS}..{MAX_PLAYERS}}}",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    rng = random.Random(args.seed)
    play_random_game(random.Random(0), args.players)  # warm up, off the measured rng
    rates = []
    for _ in range(args.repeats):
        started = time.process_time()
        actions = sum(play_random_game(rng, args.players) for _ in range(args.games))
        rates.append(args.games / (time.process_time() - started))
    median = statistics.median(rates)
    print(
        f"{args.games} games of {args.players} players a repeat, {actions // args.games} "
        f"actions a game, {args.repeats} repeats"
    )
    print(
        f"games per second (median): {median:9,.0f}  (min {min(rates):,.0f}, max {max(rates):,.0f})"
    )
    if args.players == DEFAULT_PLAYERS:
        verdict = "meets" if median >= TARGET_GAMES_PER_SECOND else "is below"
        print(f"(this {verdict} the target of {TARGET_GAMES_PER_SECOND:,} games per second)")


if __name__ == "__main__":
    main()
