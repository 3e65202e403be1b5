"""Skill ratings on games the computer players play: does the rating find their order?

Usage: python -m benchmarks.bench_ratings [--games N] [--seed S] [--workers W]

N games (default 2,000) of Pickomino in one test community, 2 to 5 seats each, every
seat an Easy, Normal or Hard computer player (at least two levels at a table), played
with the engine and the computer players (no Discord), on W processes. Their results go
through the bot's own path in game order: `SqlResultStore.save` on a SQLite database,
which rates each game in its transaction (one rating a level and community, as in the
bot: two seats of one level at a table are one rated player, its first seat's place).
Then `python -m bot ratings rebuild`'s rebuild runs on the same history.

Prints each level's rating (mu, sigma, mu +- 2 sigma, the shown rating), whether the
order is Hard > Normal > Easy with the intervals apart, whether the rebuild gave the
live ratings back to the last digit, and the costs: a save with its rating (p50, p99),
the rebuild, and the 30-day board replayed from the window's games.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.support.arguments import count, positive
from bot.games.pickomino.ai.players import Level, carry_out, decide
from bot.games.pickomino.engine import Game, Rules
from bot.history.models import DAY, Period
from bot.history.rating_sql import rebuild_all
from bot.history.ratings import Player, Rating
from bot.history.record import GameResult, PlayerResult
from bot.history.sql import SqlResultStore
from bot.storage import apply_migrations, open_database
from bot.storage.protocols import Database

KIND = "pickomino"
COMMUNITY = 1
LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)


@dataclass(frozen=True, slots=True)
class Played:
    """One game: each seat's level, place and score, in seat order."""

    levels: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]


def play(number: int) -> Played:
    """Game `number`: its table (2 to 5 seats, two levels at least) and its dice come
    from `number` alone, so a run is the same on any number of workers."""
    rng = random.Random(number)
    seats = rng.randint(2, 5)
    levels = [rng.choice(LEVELS) for _ in range(seats)]
    while len(set(levels)) < 2:
        levels = [rng.choice(LEVELS) for _ in range(seats)]
    return play_table(tuple(levels), rng)


def play_table(levels: tuple[Level, ...], rng: random.Random) -> Played:
    """A game of computer players at these levels, in seat order."""
    seats = len(levels)
    names = [f"s{seat}" for seat in range(seats)]
    game = Game(names, Rules(), first=rng.randrange(seats))
    while not game.is_over:
        mover = game.current_player
        carry_out(game, decide(game, levels[names.index(mover)]), rng)
    place = {standing.player: standing.rank for standing in game.standings()}
    return Played(
        tuple(str(level) for level in levels),
        tuple(place[name] for name in names),
        tuple(game.score(name) for name in names),
    )


def result_of(number: int, played: Played, ended_at: int) -> GameResult:
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
        game=KIND,
        game_id=number,
        guild_id=COMMUNITY,
        channel_id=COMMUNITY,
        started_at=ended_at - 600,
        ended_at=ended_at,
        abandoned=False,
        options={},
        players=players,
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

    @property
    def ordered(self) -> bool:
        easy, normal, hard = (self.levels[level] for level in LEVELS)
        return hard.mu > normal.mu > easy.mu

    @property
    def apart(self) -> bool:
        """Each level's mu - 2 sigma above the next weaker one's mu + 2 sigma."""
        easy, normal, hard = (self.levels[level] for level in LEVELS)
        return (
            hard.mu - 2 * hard.sigma > normal.mu + 2 * normal.sigma
            and normal.mu - 2 * normal.sigma > easy.mu + 2 * easy.sigma
        )


async def rate(games: list[Played], path: Path, now: int) -> Report:
    """Save the games in order (each rated live), read the ratings, rebuild, compare."""
    db = await open_database(f"sqlite:///{path}")
    try:
        await apply_migrations(db)
        store = SqlResultStore()
        first = now - 20 * DAY  # every game inside the last 30 days
        step = max(1, 19 * DAY // max(1, len(games)))
        save_ms = []
        for number, played in enumerate(games, start=1):
            result = result_of(number, played, first + number * step)
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
            await store.rating_board(conn, KIND, COMMUNITY, Period.DAYS_30, asker_id=0, now=now)
        season_s = time.perf_counter() - started
    finally:
        await db.close()
    levels = {player.bot_level: rating for player, rating in live.items()}
    return Report(
        levels, live == rebuilt, save_ms, rebuild_s, season_s, len(games), seat_results(games)
    )


async def _ratings(db: Database) -> dict[Player, Rating]:
    rows = await db.fetchall("SELECT user_id, bot_level, mu, sigma, games FROM ratings")
    return {Player(row[0], row[1]): Rating(row[2], row[3], row[4]) for row in rows}


def run(games: int, seed: int, workers: int) -> Report:
    numbers = range(seed * 1_000_000 + 1, seed * 1_000_000 + games + 1)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            played = list(pool.map(play, numbers, chunksize=16))
    else:
        played = [play(number) for number in numbers]
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(rate(played, Path(folder) / "ratings.db", int(time.time())))


def print_report(report: Report, seconds: float) -> None:
    print(f"{report.games:,} games in one community, 2-5 seats, played in {seconds:.0f} s")
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
        seats, wins, above = report.seat_results[level]
        print(f"{level:8} {seats:>6,} {wins:>7.1%} {above:>7.1%}")
    print(f"order Hard > Normal > Easy: {'yes' if report.ordered else 'NO'}")
    print(f"intervals (mu +- 2 sigma) apart: {'yes' if report.apart else 'NO'}")
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
    parser.add_argument("--games", type=positive, default=2_000, help="games to play")
    parser.add_argument("--seed", type=count, default=1, help="which games (their dice)")
    parser.add_argument("--workers", type=positive, default=2, help="processes playing")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report = run(args.games, args.seed, args.workers)
    print_report(report, time.perf_counter() - started)


if __name__ == "__main__":
    main()
