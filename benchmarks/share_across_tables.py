"""What a share of four-player games asks of a player, read in two-player games.

Usage: python -m benchmarks.share_across_tables [--games N] [--games-4p M]
                                                [--players NAME ...] [--target T]
                                                [--seed S] [--workers W] [--base]

Issue 28 asks Hard for 55% of two-player Extrawurm games against Normal and 30% of
four-player games against three Normals. Are those the same edge? This measures how a
player's edge over Normal carries from two seats to four, on players whose edge is
known and has nothing to do with Hard's search:

- Easy, a weaker player,
- Normal rolling a ninth die every turn (bench_bots' `normal_ninth_die`), a stronger one,

each against Normal at two seats (N games) and four (M, default N), paired deals as in
bench_bots, and Hard the same way (`--players` picks among them). With `--base` the
base game is played, Easy its only reference (its Normal solves turns of eight dice).

A player's odds against one Normal are read from a share s at n seats as
(n - 1) * s / (1 - s): the strength that wins s of the games in a Bradley-Terry race
against n - 1 Normals of strength 1. If an edge carried unchanged, a player's two- and
four-player odds would be equal. They are not: measured, the four-player odds are the
two-player odds to a power k below 1 (`exponent`), and the two reference players,
one weaker and one stronger than Normal, give about the same k. The script prints each
player's shares and k, then the two-player share that the target's four-player share
(30%) asks for under the references' k (`two_player_equivalent`), with the range the
shares' 95% intervals allow, and Hard's four-player share as its two-player share
predicts it beside the measured one.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from itertools import repeat

from benchmarks.arguments import positive
from benchmarks.bench_bots import Matchup, game_numbers, play
from benchmarks.stats import deal_interval, deal_means

REFERENCES = ("easy", "normal_ninth_die")  # edges that owe nothing to Hard's search
TARGET = 0.30  # issue 28: Hard against three Normals, four-player Extrawurm


def odds(share: float, seats: int) -> float:
    """A player's strength against one Normal, from its share of `seats`-player games
    against Normals (Bradley-Terry: strength r wins r / (r + seats - 1))."""
    return (seats - 1) * share / (1 - share)


def share_of(strength: float, seats: int) -> float:
    """The share a player of `strength` gets against `seats` - 1 Normals (see odds)."""
    return strength / (strength + seats - 1)


def exponent(two_player: float, four_player: float) -> float:
    """k such that the four-player odds are the two-player odds to the power k."""
    return math.log(odds(four_player, 4)) / math.log(odds(two_player, 2))


def two_player_equivalent(four_player: float, k: float) -> float:
    """The two-player share of a player whose four-player share is `four_player`, when
    an edge carries from two seats to four with exponent k."""
    return share_of(odds(four_player, 4) ** (1 / k), 2)


@dataclass(frozen=True, slots=True)
class Measured:
    """A player's share of first place against Normals, with its 95% interval."""

    share: float
    low: float
    high: float


def measure(
    hero: str, seats: int, games: int, extrawurm: bool, seed: int, pool: Executor
) -> Measured:
    """The hero's share against Normals over whole deals, as bench_bots plays them."""
    matchup = Matchup(hero, "normal", seats, games, extrawurm=extrawurm)
    numbers = game_numbers(matchup, seed)
    shares = [result[0] for result in pool.map(play, numbers, repeat(matchup), chunksize=4)]
    low, high = deal_interval(deal_means(shares, seats))
    return Measured(sum(shares) / len(shares), low, high)


def readable(two_player: float, four_player: float) -> bool:
    """Whether the two shares give an exponent: an edge, and neither share 0 or 1."""
    return 0 < two_player < 1 and 0 < four_player < 1 and abs(two_player - 0.5) >= 0.005


def exponent_range(two: Measured, four: Measured) -> tuple[float, float]:
    """The exponents the two shares' 95% intervals allow (their corners), when the
    intervals stay on one side of an even two-player share."""
    corners = [
        exponent(a, b) for a in (two.low, two.high) for b in (four.low, four.high) if readable(a, b)
    ]
    if not corners or (two.low - 0.5) * (two.high - 0.5) <= 0:
        return -math.inf, math.inf
    return min(corners), max(corners)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive, default=1000, help="two-player games per player")
    parser.add_argument("--games-4p", type=positive, help="four-player games (default: --games)")
    parser.add_argument("--base", action="store_true", help="the base game, not Extrawurm")
    parser.add_argument("--players", nargs="*", default=[*REFERENCES, "hard"])
    parser.add_argument("--target", type=float, default=TARGET, help="a four-player share")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=positive, default=2)
    args = parser.parse_args(argv)
    unknown = [name for name in args.players if name not in (*REFERENCES, "hard")]
    if unknown or not args.players:
        parser.error(f"--players takes {', '.join((*REFERENCES, 'hard'))}")
    if args.base and "normal_ninth_die" in args.players:
        # The base game's Normal solves turns of eight dice; Extrawurm's solves nine too.
        parser.error("normal_ninth_die plays Extrawurm only: leave it out with --base")
    games_4p = args.games_4p if args.games_4p is not None else args.games
    if args.games < 2 or games_4p < 4:
        # Each table plays whole deals, one game from every seat; k needs both tables.
        parser.error("play at least one whole deal at each table: --games 2, --games-4p 4")
    extrawurm = not args.base
    started = time.perf_counter()
    measured: dict[str, tuple[Measured, Measured]] = {}
    print(f"{'player, against Normal':<24} {'2 players':>22} {'4 players':>22}  k")
    with ProcessPoolExecutor(args.workers) as pool:
        for name in args.players:
            two = measure(name, 2, args.games, extrawurm, args.seed, pool)
            four = measure(name, 4, games_4p, extrawurm, args.seed, pool)
            measured[name] = (two, four)
            print(f"{name:<24} {_shown(two):>22} {_shown(four):>22}  {_exponent_shown(two, four)}")
    references = [
        measured[name]
        for name in REFERENCES
        if name in measured and readable(measured[name][0].share, measured[name][1].share)
    ]
    if references:
        _print_reading(references, measured.get("hard"), args.target)
    else:
        print("no reference player gave both shares between 0 and 1: play more games")
    mode = "base game" if args.base else "Extrawurm"
    print(f"{mode}, seed {args.seed}: {time.perf_counter() - started:.0f} s")


def _print_reading(
    references: list[tuple[Measured, Measured]],
    hard: tuple[Measured, Measured] | None,
    target: float,
) -> None:
    k = sum(exponent(two.share, four.share) for two, four in references) / len(references)
    ranges = [exponent_range(two, four) for two, four in references]
    low_k, high_k = max(low for low, _ in ranges), min(high for _, high in ranges)
    if low_k > high_k:  # the references' intervals do not overlap: the widest reading
        low_k, high_k = min(low for low, _ in ranges), max(high for _, high in ranges)
    reading = f"{target:.0%} of four-player games reads as {two_player_equivalent(target, k):.1%}"
    if low_k > 0 and math.isfinite(high_k):
        print(
            f"k from the references: {k:.2f} (their intervals allow {low_k:.2f} to "
            f"{high_k:.2f}). {reading} of two-player games "
            f"({two_player_equivalent(target, high_k):.1%} to "
            f"{two_player_equivalent(target, low_k):.1%})"
        )
    else:
        print(f"k from the references: {k:.2f} (too few games for a range). {reading}")
    if hard is not None and 0 < hard[0].share < 1:  # odds to carry: any share but 0 and 1
        two, four = hard
        predicted = share_of(odds(two.share, 2) ** k, 4)
        print(
            f"hard: {two.share:.1%} of two-player games predicts {predicted:.1%} of four-player "
            f"games at k = {k:.2f}; measured {four.share:.1%}"
        )


def _shown(measured: Measured) -> str:
    return f"{measured.share:5.1%} [{measured.low:.1%}, {measured.high:.1%}]"


def _exponent_shown(two: Measured, four: Measured) -> str:
    if not readable(two.share, four.share):  # no edge, or a share of 0 or 1
        return "-"
    return f"{exponent(two.share, four.share):.2f}"


if __name__ == "__main__":
    main()
