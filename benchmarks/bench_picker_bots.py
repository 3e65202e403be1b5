"""Benchmark Picker's Hard against opponents it was and was not built against.

Usage: python -m benchmarks.bench_picker_bots [--games N] [--five N] [--eight N]
                                              [--hero NAME ...] [--only TEXT ...]
                                              [--samples S] [--seed S] [--workers W]
                                              [--ceiling] [--untold] [--cache-dir DIR]

Matchups, the hero (default Hard; `--hero todays_hard` is Hard before issue 28, and
any player below may be the hero) in one seat and copies of one opponent in the others:

- two look-ahead bots (3 players), two greedy players (3), four greedy players (5),
  two Normals (3): N games each (N, default 1,200; 5 players: --five, default N);
- seven greedy players (8 players, --eight games, default 40): Hard's decision time
  where it is slowest, and its share for what it is worth.

The Normals are the bot's own computer players, and the hero is told which seats they
sit in, as the bot tells its players (`normal_seats`, from the session's seats); with
--untold it reads their rule from their keeps like anyone else's.

`greedy` and `lookahead` are the issue's opponents (support/picker_opponents.py),
the look-ahead with S sampled futures a decision (--samples; the default costs about
40 ms of CPU). Games come in deals: a deal is played once from every seat, the hero
moving one seat a game, the first player staying in seat 0, and each round rolling
from the deal's own stream for it, so the hero meets in one game the dice an opponent
met in another and much of the luck cancels (as in benchmarks/bench_bots.py). Each
seat decides with its own seeded stream, so two heroes on the same seed meet the same
dice and the same opponents' luck: the paired way to compare versions.

A player's result is its share of first place (1 for a win, 1/k for a place shared by
k, else 0); printed with a 95% interval over deals, the fair share, and the hero's
decision CPU time (time.process_time) p50/p99 over its decisions with a choice (two or
more dice left), by player count. `--ceiling` also prints the best share any player can
reach against two Normals and against two greedy players, computed exactly by
support/picker_ceiling.py (about a minute each), and against two look-ahead players with
every future weighed (infinitely many samples), from Hard's exact tables.
The exact tables (bot/games/picker/ai/exact.py) are built first, as the bot does at start
(about 45 s), or loaded from --cache-dir when kept there (and kept there once built).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from itertools import repeat
from pathlib import Path

from benchmarks.support.arguments import count, positive
from benchmarks.support.picker_ceiling import ceiling, solve
from benchmarks.support.picker_opponents import LOOKAHEAD_SAMPLES, greedy, greedy_index, lookahead
from benchmarks.support.picker_todays_hard import todays_hard
from benchmarks.support.stats import (
    deal_interval,
    deal_means,
    first_place_share,
    mean_interval,
    percentile,
)
from bot.games.picker.ai import Level, decide, exact
from bot.games.picker.engine import Colour, Game, Pick, RandomSource

TARGET_P99_MS = 50.0
# The targets for Hard: (opponent, seats) -> least share.
TARGETS = {("lookahead", 3): 0.38, ("greedy", 3): 0.41, ("greedy", 5): 0.36, ("normal", 3): 0.40}

Player = Callable[[Game, RandomSource], Colour]


def _level(level: Level, normal_seats: frozenset[int] = frozenset()) -> Player:
    return lambda game, rng: decide(game, level, rng, normal_seats).colour


LEVELS = {"hard": Level.HARD, "normal": Level.NORMAL}
PLAYERS: dict[str, Player] = {
    **{name: _level(level) for name, level in LEVELS.items()},
    "greedy": greedy,
    "lookahead": lookahead,
    "todays_hard": todays_hard,
}


@dataclass(frozen=True, slots=True)
class Matchup:
    hero: str
    villain: str
    seats: int
    games: int
    samples: int = LOOKAHEAD_SAMPLES  # the look-ahead's futures a decision
    # The hero is told which seats Normal computer players sit in, as the bot tells
    # its own players (--untold: it reads every seat's rule from the keeps).
    told: bool = True

    @property
    def name(self) -> str:
        return f"{self.hero} vs {self.seats - 1} {self.villain} ({self.seats}p)"


def play(number: int, matchup: Matchup) -> tuple[float, list[float]]:
    """Game `number` (of deal number // seats, the hero in seat number % seats): the
    hero's share of first place and the CPU seconds of its decisions with a choice."""
    seats = matchup.seats
    deal, hero = divmod(number, seats)
    names = [f"s{seat}" for seat in range(seats)]
    players = [_player(matchup.villain, matchup.samples)] * seats
    told = matchup.told and matchup.villain == "normal"
    normal_seats = frozenset(seat for seat in range(seats) if seat != hero and told)
    players[hero] = _player(matchup.hero, matchup.samples, normal_seats)
    streams = [random.Random(f"{number}:{seat}") for seat in range(seats)]
    game = Game(names, first=0, computer=names)
    times: list[float] = []
    while not game.is_over:
        if game.legal_actions().can_roll:
            game.roll_with(random.Random(f"{deal}:{game.round}"))
            continue
        seat = game.current
        started = time.process_time()
        colour = players[seat](game, streams[seat])
        if seat == hero and len(game.available()) > 1:
            times.append(time.process_time() - started)
        game.apply(Pick(colour))
    return first_place_share(game.standings(), names[hero]), times


def _player(name: str, samples: int, normal_seats: frozenset[int] = frozenset()) -> Player:
    if name == "lookahead":
        return partial(lookahead, samples=samples)
    if name in LEVELS:
        return _level(LEVELS[name], normal_seats)
    return PLAYERS[name]


def matchups(
    hero: str, games: int, five: int, eight: int, samples: int, told: bool = True
) -> list[Matchup]:
    return [
        Matchup(hero, "lookahead", 3, games, samples),
        Matchup(hero, "greedy", 3, games),
        Matchup(hero, "greedy", 5, five),
        Matchup(hero, "normal", 3, games, told=told),
        Matchup(hero, "greedy", 8, eight),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=count, default=1200, help="3-player games a matchup")
    parser.add_argument("--five", type=count, help="5-player games (default: --games)")
    parser.add_argument("--eight", type=count, default=40, help="8-player games")
    parser.add_argument("--hero", nargs="+", default=["hard"], choices=sorted(PLAYERS))
    parser.add_argument("--only", nargs="*", help="matchups whose name contains one of these")
    parser.add_argument("--samples", type=positive, default=LOOKAHEAD_SAMPLES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=positive, default=2)
    parser.add_argument(
        "--ceiling", action="store_true", help="also the exact best shares of 3-player games"
    )
    parser.add_argument(
        "--cache-dir", type=Path, help="a folder to load the exact tables from, or keep them in"
    )
    parser.add_argument(
        "--untold",
        action="store_true",
        help="the hero is not told which seats Normal computer players sit in",
    )
    args = parser.parse_args(argv)
    five = args.games if args.five is None else args.five
    started = time.perf_counter()
    # Ready once here, before the workers fork, as the bot has them at start.
    exact.TABLES.load_or_build(args.cache_dir)
    print(
        f"3-player exact tables: ready in {time.perf_counter() - started:.0f} s, "
        f"{exact.TABLES.nbytes / 2**20:.0f} MiB"
    )
    times: dict[tuple[str, int], list[float]] = defaultdict(list)
    deals_by: dict[tuple[str, str, int], list[float]] = {}  # (hero, villain, seats)
    print(f"{'matchup':<34} {'games':>6}  share   95% CI           fair  target")
    with ProcessPoolExecutor(args.workers) as pool:
        for hero in args.hero:
            for matchup in matchups(
                hero, args.games, five, args.eight, args.samples, told=not args.untold
            ):
                if args.only and not any(part in matchup.name for part in args.only):
                    continue
                seats = matchup.seats
                first = args.seed * 1_000_000 // 840 * 840  # whole deals at every table size
                numbers = range(first, first + matchup.games // seats * seats)
                if not numbers:
                    continue
                results = list(pool.map(play, numbers, repeat(matchup), chunksize=seats * 2))
                shares = [result[0] for result in results]
                times[hero, seats].extend(t for result in results for t in result[1])
                deals = deal_means(shares, seats)
                deals_by[hero, matchup.villain, seats] = deals
                low, high = deal_interval(deals)
                target = TARGETS.get((matchup.villain, seats))
                print(
                    f"{matchup.name:<34} {len(results):>6}  {sum(shares) / len(results):5.1%}  "
                    f"{low:5.1%} to {high:5.1%}   {1 / seats:.0%}   "
                    f"{'' if target is None else format(target, '.0%')}",
                    flush=True,
                )
    _print_differences(args.hero, deals_by)
    for (hero, seats), samples in sorted(times.items()):
        print(
            f"{hero} decision CPU ms, {seats} players: p50 {_ms(samples, 0.5)}, "
            f"p99 {_ms(samples, 0.99)}, max {max(samples) * 1000:.1f} "
            f"({len(samples)} decisions; p99 target {TARGET_P99_MS:.0f})"
        )
    if args.ceiling:
        for name, opponent in (("normal", None), ("greedy", greedy_index)):
            best = ceiling(solve(opponent=opponent))
            print(f"best possible share against 2 {name} (exact): {sum(best) / len(best):.1%}")
        rules = (exact.Rule.LOOKAHEAD, exact.Rule.LOOKAHEAD)
        best = [
            float(exact.TABLES.pairs[rules].table(0, (first, (0, 0, 0)))[0, 0])
            for first in range(3)
        ]
        print(
            f"best possible share against 2 lookahead (exact, infinitely many samples): "
            f"{sum(best) / len(best):.1%}"
        )
    print(f"in {time.perf_counter() - started:.0f} s with {args.workers} workers")


def _print_differences(
    heroes: list[str], deals_by: dict[tuple[str, str, int], list[float]]
) -> None:
    """Each later hero's share less the first's, deal by deal (the same dice and the
    same opponents' streams): a narrower interval than the two shares' own."""
    for (hero, villain, seats), deals in deals_by.items():
        base = deals_by.get((heroes[0], villain, seats))
        if hero == heroes[0] or base is None or len(deals) < 2:
            continue
        differences = [mine - theirs for mine, theirs in zip(deals, base, strict=True)]
        low, high = mean_interval(differences)
        mean = sum(differences) / len(differences)
        print(
            f"{hero} less {heroes[0]} vs {seats - 1} {villain} ({seats}p), paired: "
            f"{mean:+.1%} (95% CI {low:+.1%} to {high:+.1%})"
        )


def _ms(seconds: list[float], fraction: float) -> str:
    return f"{percentile(seconds, fraction) * 1000:5.2f}"


if __name__ == "__main__":
    main()
