"""Benchmark the computer players against public baselines and against each other.

Usage: python -m benchmarks.bench_bots [--games N] [--games-4p M] [--games-5p P]
                                       [--games-extrawurm E] [--games-extrawurm-4p F]
                                       [--seed S] [--workers W] [--only NAME ...]
                                       [--dice {deal,game}]

Matchups (benchmarks/support/baselines.py has the baselines):

- Hard against OptimalBot and against pickomino-env's heuristic, in two-player games
  (N, default 4,000) and in four-player games against three copies (M, default N/2),
- Hard against today's Hard (before the win-chance objective), two players,
- Normal against pickomino-env's heuristic, two players,
- Hard against three Normals in four-player games (M) and against four in five-player
  games (P, default M/2),
- Hard against Normal with the Extrawurm expansion on, two players (E, default N/5:
  an Extrawurm game costs several times a base game, its specialists and nine dice),
  and against three Normals in four-player games (F, default E/2).

Games come in deals (--dice deal, the default): a deal is played once from every seat,
the hero moving one seat per game while the first player stays in seat 0, and each turn
rolls from the deal's own stream for that turn's number. So the hero meets, in one game
of the deal, the dice an opponent met in another, and much of the luck cancels: in a
trial of 1,000 two-player games of Hard against OptimalBot, the hero's results in a
deal's two games correlated at -0.47, and the interval came out 27% narrower than for
as many independent games (as narrow as about 1.9 times the games would give). Two
versions of a bot run on the same seed also meet the same dice turn by turn, even after
their choices part: the paired way to pick a variant. With --dice game every game rolls
from one stream of its own (the benchmark's figures before 2026-11-23), the seat still
rotating with the game's number.

A player's result in a game is its share of the first place (1 for a win, 1/k for a
place shared by k, else 0) and the share of its opponents it finished ahead of (a
shared place counts half); the table prints the mean of each with a 95% interval (over
deals, as their games are not independent; Wilson's for --dice game), the fair share
of first places (1/players), and Hard's decision times (CPU, p50 and p99) over its
decisions, by table size and rules.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from itertools import repeat

from benchmarks.support.arguments import count, positive
from benchmarks.support.baselines import BASELINES
from benchmarks.support.stats import (
    deal_interval,
    deal_means,
    first_place_share,
    opponents_beaten,
    wilson,
)
from bot.games.pickomino.ai.players import Decision, Level, carry_out, decide
from bot.games.pickomino.engine import Game, Rules

PLAYERS: dict[str, Callable[[Game], Decision]] = {
    "hard": lambda game: decide(game, Level.HARD),
    "normal": lambda game: decide(game, Level.NORMAL),
    "easy": lambda game: decide(game, Level.EASY),
    **BASELINES,
}


@dataclass(frozen=True, slots=True)
class Matchup:
    hero: str
    villain: str
    seats: int
    games: int
    extrawurm: bool = False
    deals: bool = True  # each deal from every seat, a dice stream per turn (--dice deal)

    @property
    def name(self) -> str:
        expansion = ", extrawurm" if self.extrawurm else ""
        return f"{self.hero} vs {self.villain} ({self.seats}p{expansion})"


def play(number: int, matchup: Matchup) -> tuple[float, float, list[float]]:
    """Game `number` (of deal number // seats, the hero in seat number % seats): the
    hero's share of first place, the share of its opponents it finished ahead of, and
    its decision CPU times."""
    seats = matchup.seats
    deal, seat = divmod(number, seats)
    rng = random.Random(number)  # --dice game; with deals, each turn replaces it
    names = [f"s{place}" for place in range(seats)]
    hero = names[seat]
    deciders = {name: PLAYERS[matchup.villain] for name in names} | {hero: PLAYERS[matchup.hero]}
    game = Game(names, Rules(extrawurm=matchup.extrawurm), first=0)
    times: list[float] = []
    turn = -1  # no turn yet: the first turn rolls from the deal's stream too
    while not game.is_over:
        if matchup.deals and game.turn_number != turn:
            turn = game.turn_number
            rng = random.Random(f"{deal}:{turn}")
        mover = game.current_player
        started = time.process_time()
        decision = deciders[mover](game)
        if mover == hero:
            times.append(time.process_time() - started)
        carry_out(game, decision, rng)
    standings = game.standings()
    return first_place_share(standings, hero), opponents_beaten(standings, hero), times


def game_numbers(matchup: Matchup, seed: int) -> range:
    """The numbers of `matchup`'s games for `seed`: whole deals (the games a multiple of
    the seats), from seed * 1,000,000, a multiple of every table's seats."""
    first = seed * 1_000_000
    return range(first, first + matchup.games // matchup.seats * matchup.seats)


def matchups(
    games: int, games_4p: int, games_5p: int, games_extrawurm: int, games_extrawurm_4p: int
) -> list[Matchup]:
    return [
        Matchup("hard", "optimal_bot", 2, games),
        Matchup("hard", "optimal_bot", 4, games_4p),
        Matchup("hard", "env_heuristic", 2, games),
        Matchup("hard", "env_heuristic", 4, games_4p),
        Matchup("hard", "todays_hard", 2, games),
        Matchup("normal", "env_heuristic", 2, games),
        Matchup("hard", "normal", 4, games_4p),
        Matchup("hard", "normal", 5, games_5p),
        Matchup("hard", "normal", 2, games_extrawurm, extrawurm=True),
        Matchup("hard", "normal", 4, games_extrawurm_4p, extrawurm=True),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=count, default=4000, help="two-player games per matchup")
    parser.add_argument("--games-4p", type=count, help="four-player games (default: games / 2)")
    parser.add_argument("--games-5p", type=count, help="five-player games (default: 4p / 2)")
    parser.add_argument(
        "--games-extrawurm", type=count, help="Extrawurm games (default: games / 5)"
    )
    parser.add_argument(
        "--games-extrawurm-4p", type=count, help="four-player Extrawurm games (default: E / 2)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=positive, default=2)
    parser.add_argument("--only", nargs="*", help="matchups whose name contains one of these")
    parser.add_argument(
        "--dice",
        choices=("deal", "game"),
        default="deal",
        help="deal: every deal from every seat, each turn from the deal's stream for it "
        "(default); game: one stream per game",
    )
    args = parser.parse_args(argv)
    games_4p = args.games_4p if args.games_4p is not None else args.games // 2
    games_5p = args.games_5p if args.games_5p is not None else games_4p // 2
    games_extrawurm = args.games_extrawurm
    if games_extrawurm is None:
        games_extrawurm = args.games // 5
    games_extrawurm_4p = args.games_extrawurm_4p
    if games_extrawurm_4p is None:
        games_extrawurm_4p = games_extrawurm // 2
    started = time.perf_counter()
    hard_times: dict[tuple[bool, int], list[float]] = defaultdict(list)  # (extrawurm, seats)
    print(f"{'matchup':<44} {'games':>6}  share   95% CI           fair  beaten  95% CI")
    with ProcessPoolExecutor(args.workers) as pool:
        tables = matchups(args.games, games_4p, games_5p, games_extrawurm, games_extrawurm_4p)
        for matchup in tables:
            if args.only and not any(part in matchup.name for part in args.only):
                continue
            matchup = replace(matchup, deals=args.dice == "deal")
            seats = matchup.seats
            numbers = game_numbers(matchup, args.seed)
            if not numbers:  # fewer games than seats: not one whole deal to play
                continue
            chunks = 4 if matchup.extrawurm else 20
            results = list(pool.map(play, numbers, repeat(matchup), chunksize=chunks))
            shares = [result[0] for result in results]
            beaten = [result[1] for result in results]
            if matchup.hero == "hard":
                times = hard_times[matchup.extrawurm, seats]
                times.extend(sample for result in results for sample in result[2])
            low, high = _interval(shares, matchup)
            beaten_low, beaten_high = _interval(beaten, matchup)
            print(
                f"{matchup.name:<44} {len(results):>6}  {sum(shares) / len(results):5.1%}  "
                f"{low:5.1%} to {high:5.1%}   {1 / matchup.seats:.0%}  "
                f"{sum(beaten) / len(results):5.1%}  {beaten_low:5.1%} to {beaten_high:5.1%}",
                flush=True,
            )
    for (extrawurm, seats), samples in sorted(hard_times.items()):
        if len(samples) < 2:
            continue
        label = f"hard{' with extrawurm' if extrawurm else ''}, {seats} players"
        cuts = statistics.quantiles(samples, n=100, method="inclusive")
        print(
            f"{label} decisions: {len(samples)}, CPU p50 {cuts[49] * 1000:.2f} ms, "
            f"p99 {cuts[98] * 1000:.2f} ms, max {max(samples) * 1000:.2f} ms"
        )
    print(f"{time.perf_counter() - started:.0f} s with {args.workers} workers")


def _interval(results: list[float], matchup: Matchup) -> tuple[float, float]:
    """The 95% interval of a mean result: over deals (a deal's games are consecutive
    numbers and not independent), or Wilson's for games of their own dice."""
    if matchup.deals:
        return deal_interval(deal_means(results, matchup.seats))
    return wilson(sum(results), len(results))


if __name__ == "__main__":
    main()
