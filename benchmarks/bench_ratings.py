"""Skill ratings on games the computer players play: does the rating find their order?

Usage: python -m benchmarks.bench_ratings [--game {pickomino,picker}] [--games N]
                                          [--seed S] [--workers W] [--orders K]
                                          [--cache-dir DIR]

N games (default 2,000) of one game in one test community, every seat an Easy, Normal
or Hard computer player (at least two levels at a table): Pickomino at 2 to 5 seats, a
quarter of them with Extrawurm (one rating for both, as in the bot); Picker at 3 to 7
(its exact three-player tables built first, as the bot has them, or loaded from
--cache-dir). Tables and dice come from benchmarks/support/rated_tables.py, played on
W processes. Their results go through the bot's own path in game order:
`SqlResultStore.save` on a SQLite database, which rates each game in its transaction
(one rating a level and community, as in the bot: two seats of one level at a table
are one rated player, its first seat's place). Then `python -m bot ratings rebuild`'s
rebuild runs on the same history.

Prints each level's rating (mu, sigma, mu +- 2 sigma, the shown rating), its share of
first places and of opponents beaten over its seats, head to head at tables of 3 to 5
seats (how often each level finished ahead of each weaker one at the same table, pair
by pair, with a 95% interval over games; Pickomino's Extrawurm games also alone, and
the tables where the third level has no seat),
whether the order is Hard > Normal > Easy with the intervals apart, and in how many of
K other orders of the same games (default 100, rated in memory by the ratings' own
replay: a rating drifts, so the last few hundred games weigh most), whether the rebuild
gave the live ratings back to the last digit, and the costs: a save with its rating
(p50, p99), the rebuild, and the 30-day board replayed from the window's games.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from benchmarks.support.arguments import count, positive
from benchmarks.support.rated_tables import (
    EXTRAWURM,
    GAMES,
    LEVELS,
    HeadToHead,
    Played,
    RatedGame,
    head_to_head,
)
from bot.games.picker.ai import exact
from bot.history.models import DAY, Period
from bot.history.rating_sql import rebuild_all, seats_of
from bot.history.ratings import Player, Rating, Ratings
from bot.history.record import GameResult, PlayerResult
from bot.history.sql import SqlResultStore
from bot.storage import apply_migrations, open_database
from bot.storage.protocols import Database

COMMUNITY = 1
HEAD_TO_HEAD_SEATS = range(3, 6)  # the tables pairs are counted at: more than two seats
PAIRS = (("hard", "normal"), ("normal", "easy"), ("hard", "easy"))


def result_of(kind: str, number: int, played: Played, ended_at: int) -> GameResult:
    players = [
        PlayerResult(
            seat=seat,
            user_id=-(seat + 1),
            name=f"Pip ({level})",
            is_bot=True,
            score=score,
            rank=rank,
            won=rank == 1,
            bot_level=level,
        )
        for seat, (level, rank, score) in enumerate(
            zip(played.levels, played.ranks, played.scores, strict=True)
        )
    ]
    return GameResult(
        game=kind,
        game_id=number,
        guild_id=COMMUNITY,
        channel_id=COMMUNITY,
        started_at=ended_at - 600,
        ended_at=ended_at,
        abandoned=False,
        options={EXTRAWURM: True} if played.variant == EXTRAWURM else {},
        players=players,
        variant=played.variant,
    )


def seat_results(games: list[Played]) -> dict[str, tuple[int, float, float]]:
    """Per level, over every seat it played: (seats, its share of first places (1/k for
    a first place shared by k), the share of its opponents it finished above)."""
    seats = {level: 0 for level in LEVELS}
    wins = {level: 0.0 for level in LEVELS}
    above = {level: 0.0 for level in LEVELS}
    for game in games:
        firsts = game.ranks.count(1)
        for level, rank in zip(game.levels, game.ranks, strict=True):
            seats[level] += 1
            wins[level] += 1 / firsts if rank == 1 else 0.0
            beaten = sum(other > rank for other in game.ranks)
            above[level] += beaten / (len(game.ranks) - 1)
    return {
        level: (seats[level], wins[level] / seats[level], above[level] / seats[level])
        for level in LEVELS
        if seats[level]
    }


@dataclass(frozen=True, slots=True)
class Report:
    levels: dict[str, Rating]
    live_equals_rebuilt: bool
    save_ms: list[float]
    rebuild_s: float
    season_s: float
    games: int
    seat_results: dict[str, tuple[int, float, float]] = field(default_factory=dict)
    # (which games: all, Extrawurm's or those without the third level; stronger level,
    # weaker level) -> their pairs at one table
    head_to_head: dict[tuple[str, str, str], HeadToHead] = field(default_factory=dict)
    # The same games rated in other orders: how many orders, and in how many of them
    # the order held and the intervals were apart.
    reordered: tuple[int, int, int] = (0, 0, 0)

    @property
    def ordered(self) -> bool:
        return ordered(self.levels)

    @property
    def apart(self) -> bool:
        return apart(self.levels)


def ordered(levels: dict[str, Rating]) -> bool:
    easy, normal, hard = (levels[level] for level in LEVELS)
    return hard.mu > normal.mu > easy.mu


def apart(levels: dict[str, Rating]) -> bool:
    """Each level's mu - 2 sigma above the next weaker one's mu + 2 sigma."""
    easy, normal, hard = (levels[level] for level in LEVELS)
    return (
        hard.mu - 2 * hard.sigma > normal.mu + 2 * normal.sigma
        and normal.mu - 2 * normal.sigma > easy.mu + 2 * easy.sigma
    )


def in_other_orders(games: list[Played], orders: int, seed: int) -> tuple[int, int, int]:
    """The same games rated in `orders` shuffled orders (the ratings' own replay, in
    memory): (orders, how many ordered Hard > Normal > Easy, how many apart). A rating
    drifts (tau), so its last few hundred games weigh most: the share says how much of
    the verdict is the order the games came in."""
    # Each game's seats as the live path rates them (its GameResult), built once.
    seated = [seats_of(result_of(GAMES["pickomino"].kind, 0, played, 0)) for played in games]
    held = apart_count = 0
    shuffle = random.Random(seed)
    for _ in range(orders):
        ratings = Ratings()
        for seats in shuffle.sample(seated, len(seated)):
            ratings.play(seats)
        levels = {player.bot_level: rating for player, rating in ratings.by_player.items()}
        held += ordered(levels)
        apart_count += apart(levels)
    return orders, held, apart_count


def pairs_at_tables(games: list[Played]) -> dict[tuple[str, str, str], HeadToHead]:
    """Head to head at HEAD_TO_HEAD_SEATS, per pair of levels, over every game and, where
    there are any, over the Extrawurm games alone and over the tables where the third
    level has no seat (a player far weaker or stronger at the table changes how the two
    fare against each other: the benchmark's verdict depends on its mix of tables)."""
    extrawurm = [game for game in games if game.variant == EXTRAWURM]
    found = {}
    for stronger, weaker in PAIRS:
        (third,) = set(LEVELS) - {stronger, weaker}
        variants = {
            "all": games,
            EXTRAWURM: extrawurm,
            f"no {third} seated": [game for game in games if third not in game.levels],
        }
        for name, chosen in variants.items():
            pairs = head_to_head(chosen, stronger, weaker, HEAD_TO_HEAD_SEATS)
            if pairs is not None:
                found[name, stronger, weaker] = pairs
    return found


async def rate(
    games: list[Played], path: Path, now: int, kind: str = GAMES["pickomino"].kind
) -> Report:
    """Save the games in order (each rated live), read the ratings, rebuild, compare."""
    db = await open_database(f"sqlite:///{path}")
    try:
        await apply_migrations(db)
        store = SqlResultStore()
        first = now - 20 * DAY  # every game inside the last 30 days
        step = max(1, 19 * DAY // max(1, len(games)))
        save_ms = []
        for number, played in enumerate(games, start=1):
            result = result_of(kind, number, played, first + number * step)
            started = time.perf_counter()
            async with db.transaction() as conn:
                await store.save(conn, result)
            save_ms.append((time.perf_counter() - started) * 1000)
        live = await _ratings(db)
        started = time.perf_counter()
        await rebuild_all(db)
        rebuild_s = time.perf_counter() - started
        rebuilt = await _ratings(db)
        started = time.perf_counter()
        async with db.transaction() as conn:
            await store.rating_board(conn, kind, COMMUNITY, Period.DAYS_30, asker_id=0, now=now)
        season_s = time.perf_counter() - started
    finally:
        await db.close()
    levels = {player.bot_level: rating for player, rating in live.items()}
    return Report(
        levels,
        live == rebuilt,
        save_ms,
        rebuild_s,
        season_s,
        len(games),
        seat_results(games),
        pairs_at_tables(games),
    )


async def _ratings(db: Database) -> dict[Player, Rating]:
    rows = await db.fetchall("SELECT user_id, bot_level, mu, sigma, games FROM ratings")
    return {Player(row[0], row[1]): Rating(row[2], row[3], row[4]) for row in rows}


def run(game: RatedGame, games: int, seed: int, workers: int, orders: int = 0) -> Report:
    numbers = range(seed * 1_000_000 + 1, seed * 1_000_000 + games + 1)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            played = list(pool.map(game.play, numbers, chunksize=8))
    else:
        played = [game.play(number) for number in numbers]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ratings.db"
        report = asyncio.run(rate(played, path, int(time.time()), game.kind))
    if orders:
        report = replace(report, reordered=in_other_orders(played, orders, seed))
    return report


def print_report(report: Report, game: RatedGame, seconds: float) -> None:
    seats = f"{game.seats.start}-{game.seats.stop - 1} seats"
    if game.extrawurm_share:
        seats += f", a share of {game.extrawurm_share:.0%} with Extrawurm"
    print(
        f"{report.games:,} games of {game.kind} in one community, {seats}, "
        f"played in {seconds:.0f} s"
    )
    print(f"{'level':8} {'games':>6} {'mu':>8} {'sigma':>7} {'mu-2s':>8} {'mu+2s':>8} {'shown':>6}")
    for level in reversed(LEVELS):
        r = report.levels[level]
        low, high = r.mu - 2 * r.sigma, r.mu + 2 * r.sigma
        print(
            f"{level:8} {r.games:>6,} {r.mu:>8.3f} {r.sigma:>7.3f} {low:>8.3f} {high:>8.3f}"
            f" {r.shown:>6,}"
        )
    print(f"{'level':8} {'seats':>6} {'wins':>7} {'above':>7}  (win share; opponents beaten)")
    for level in reversed(LEVELS):
        seated, wins, above = report.seat_results[level]
        print(f"{level:8} {seated:>6,} {wins:>7.1%} {above:>7.1%}")
    tables = f"{HEAD_TO_HEAD_SEATS.start}-{HEAD_TO_HEAD_SEATS.stop - 1} seats"
    print(f"head to head at tables of {tables}: pairs where the first finished ahead")
    for (games, stronger, weaker), pairs in report.head_to_head.items():
        label = f"{stronger} ahead of {weaker}" + (f" ({games})" if games != "all" else "")
        print(
            f"{label:38} {pairs.pairs:>6,} pairs {pairs.share:6.1%}  "
            f"95% CI {pairs.low:5.1%} to {pairs.high:5.1%}"
        )
    print(f"order Hard > Normal > Easy: {'yes' if report.ordered else 'NO'}")
    print(f"intervals (mu +- 2 sigma) apart: {'yes' if report.apart else 'NO'}")
    orders, held, apart_in = report.reordered
    if orders:
        print(
            f"the same games in {orders:,} other orders: Hard > Normal > Easy in {held:,}, "
            f"apart in {apart_in:,}"
        )
    print(
        "rebuild from history equals the live ratings to the last digit: "
        f"{'yes' if report.live_equals_rebuilt else 'NO'}"
    )
    p50 = statistics.median(report.save_ms)
    p99 = statistics.quantiles(report.save_ms, n=100)[98] if len(report.save_ms) > 1 else p50
    print(f"save with its rating: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    print(f"rebuild of {report.games:,} games: {report.rebuild_s * 1000:.0f} ms")
    season_ms = report.season_s * 1000
    print(f"30-day rating board, replayed from {report.games:,} games: {season_ms:.0f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_ratings")
    parser.add_argument("--game", choices=sorted(GAMES), default="pickomino")
    parser.add_argument("--games", type=positive, default=2_000, help="games to play")
    parser.add_argument("--seed", type=count, default=1, help="which games (their dice)")
    parser.add_argument("--workers", type=positive, default=2, help="processes playing")
    parser.add_argument(
        "--orders", type=count, default=100, help="other orders to rate the same games in"
    )
    parser.add_argument(
        "--cache-dir", type=Path, help="Picker: a folder to load its tables from, or keep them in"
    )
    args = parser.parse_args(argv)
    game = GAMES[args.game]
    started = time.perf_counter()
    if game.kind == "picker":  # ready before the workers fork, as the bot has them
        exact.TABLES.load_or_build(args.cache_dir)
    report = run(game, args.games, args.seed, args.workers, args.orders)
    print_report(report, game, time.perf_counter() - started)


if __name__ == "__main__":
    main()
