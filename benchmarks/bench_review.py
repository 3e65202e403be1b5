"""Benchmark: game reviews (bot.plugin.review), their CPU, their size, their accuracy.

Usage:
  python -m benchmarks.bench_review [--games N] [--seed S]
      the review's CPU per game (p50, p99, max; process time, warm caches as in the bot,
      whose start-up warms the solver) for Pickomino games of 2, 4 and 7 computer
      players of mixed levels, base and Extrawurm, and the bytes stored per reviewed game
      (the JSON the game_reviews table keeps);
  python -m benchmarks.bench_review --accuracy [--games N] [--seed S]
      the reviewed accuracy of each computer level in two-player base games against
      Normal (N games a level, first seat alternating), its mean over games with a 95%
      interval, and the pooled accuracy (sum of chosen / sum of best over every decision).
  --game picker: the same for Picker: CPU at 3, 4 and 7 players (the look-ahead; at 3
      players the exact tables once built, see --tables), and the accuracy of each level
      against two Normals at 3 players (with the exact tables, built first: about 45 s,
      or loaded from --cache).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.support.arguments import positive
from benchmarks.support.stats import mean_interval, percentile
from bot.games.picker.ai import exact
from bot.games.picker.ai.players import Level as PickerLevel
from bot.games.picker.ai.self_play import play_levels as play_picker
from bot.games.picker.review import PickerReviewer
from bot.games.pickomino.ai import warm_up
from bot.games.pickomino.ai.players import Level
from bot.games.pickomino.ai.self_play import play_levels
from bot.games.pickomino.engine import Rules
from bot.games.pickomino.review import PickominoReviewer
from bot.plugin.review import GameReview, ReviewSetup
from bot.sessions.adapter import GameEvent

TABLES = (2, 4, 7)
CPU_TARGET_SECONDS = 1.0  # p99 of a 7-player game's review
LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)
REVIEWER = PickominoReviewer()


def levels_for(players: int, game: int) -> list[Level]:
    """A mix of levels, different from game to game."""
    return [LEVELS[(game + seat) % len(LEVELS)] for seat in range(players)]


def stored_bytes(review: GameReview) -> int:
    """What the game_reviews row keeps of a review (bot.storage.reviews)."""
    return len(json.dumps(review.to_dict(), separators=(",", ":"), ensure_ascii=False).encode())


@dataclass(frozen=True, slots=True)
class Timed:
    seconds: float  # process (CPU) time of the review
    review: GameReview


def played_game(
    levels: Sequence[Level], rng: random.Random, rules: Rules, first: int
) -> tuple[ReviewSetup, list[GameEvent]]:
    """A game computer players of `levels` played, as a review is handed it."""
    players, events = play_levels(levels, rng, rules, first=first % len(levels))
    return ReviewSetup(tuple(players), rules.to_dict()), events


def timed_review(levels: Sequence[Level], rng: random.Random, rules: Rules, first: int) -> Timed:
    setup, events = played_game(levels, rng, rules, first)
    began = time.process_time()
    review = REVIEWER.review(setup, events)
    return Timed(time.process_time() - began, review)


def cpu_table(games: int, seed: int) -> dict[tuple[int, bool], list[Timed]]:
    rng = random.Random(seed)
    results: dict[tuple[int, bool], list[Timed]] = {}
    for players in TABLES:
        for extrawurm in (False, True):
            rules = Rules(extrawurm=extrawurm)
            results[players, extrawurm] = [
                timed_review(levels_for(players, game), rng, rules, game) for game in range(games)
            ]
    return results


@dataclass(frozen=True, slots=True)
class Accuracy:
    level: Level
    per_game: list[float]
    chosen: float
    best: float

    @property
    def mean(self) -> float:
        return statistics.fmean(self.per_game)

    @property
    def interval(self) -> tuple[float, float]:
        return mean_interval(self.per_game) if len(self.per_game) > 1 else (0.0, 1.0)

    @property
    def pooled(self) -> float:
        return self.chosen / self.best if self.best > 0 else 1.0


def accuracy_of(level: Level, games: int, seed: int) -> Accuracy:
    """`level` in seat 0 or 1 (alternating) against Normal, reviewed game by game."""
    rng = random.Random(f"{seed}:{level.value}")
    per_game, chosen, best = [], 0.0, 0.0
    for game in range(games):
        seat = game % 2
        levels = [Level.NORMAL, Level.NORMAL]
        levels[seat] = level
        review = timed_review(levels, rng, Rules(), first=game // 2).review
        hero = review.players[seat]
        per_game.append(hero.accuracy)
        chosen += hero.chosen
        best += hero.best
    return Accuracy(level, per_game, chosen, best)


def _pct(value: float) -> str:
    return f"{100 * value:6.2f}%"


def print_cpu(games: int, seed: int) -> None:
    warm_up()  # as the bot does at start-up
    results = cpu_table(games, seed)
    print(f"Review CPU per game ({games} games a row, process time, warm caches):")
    print(f"{'players':>7} {'variant':>9} {'p50':>8} {'p99':>8} {'max':>8} {'bytes p50':>10}")
    for (players, extrawurm), timed in results.items():
        seconds = [entry.seconds for entry in timed]
        sizes = [stored_bytes(entry.review) for entry in timed]
        print(
            f"{players:>7} {'extrawurm' if extrawurm else 'base':>9}"
            f" {percentile(seconds, 0.5) * 1000:7.0f}ms {percentile(seconds, 0.99) * 1000:7.0f}ms"
            f" {max(seconds) * 1000:7.0f}ms {percentile(sizes, 0.5):>10,}"
        )
    sizes = [stored_bytes(entry.review) for timed in results.values() for entry in timed]
    print(f"storage per reviewed game: mean {statistics.fmean(sizes):,.0f} B, max {max(sizes):,} B")
    worst = percentile([e.seconds for k, t in results.items() if k[0] == 7 for e in t], 0.99)
    verdict = "meets" if worst < CPU_TARGET_SECONDS else "breaks"
    print(f"7 players p99 {worst * 1000:.0f} ms: {verdict} the target of {CPU_TARGET_SECONDS} s")


def print_accuracy(games: int, seed: int) -> None:
    warm_up()
    print(f"Reviewed accuracy, two-player base Pickomino against Normal ({games} games a level):")
    print(f"{'level':>7} {'mean':>8} {'95% interval':>20} {'pooled':>8}")
    rows = [accuracy_of(level, games, seed) for level in (Level.HARD, Level.NORMAL, Level.EASY)]
    for row in rows:
        low, high = row.interval
        print(
            f"{row.level.value:>7} {_pct(row.mean)} [{_pct(low)}, {_pct(high)}] {_pct(row.pooled)}"
        )
    hard, normal, easy = rows
    ordered = hard.mean >= 0.99 and normal.mean < hard.mean and easy.mean < normal.mean
    print("targets (Hard >= 99%, Hard > Normal > Easy):", "met" if ordered else "NOT met")


PICKER_TABLES = (3, 4, 7)
PICKER_LEVELS = (PickerLevel.EASY, PickerLevel.NORMAL, PickerLevel.HARD)
PICKER = PickerReviewer()


def timed_picker(levels: Sequence[PickerLevel], rng: random.Random, first: int) -> Timed:
    players, events = play_picker(levels, rng, first=first % len(levels))
    computers = {player: level.value for player, level in zip(players, levels, strict=True)}
    setup = ReviewSetup(tuple(players), {}, computers=computers)
    began = time.process_time()
    review = PICKER.review(setup, events)
    return Timed(time.process_time() - began, review)


def picker_accuracy_of(level: PickerLevel, games: int, seed: int) -> Accuracy:
    """`level` in seat 0, 1 or 2 (in turn) against two Normals."""
    rng = random.Random(f"picker:{seed}:{level.value}")
    per_game, chosen, best = [], 0.0, 0.0
    for game in range(games):
        seat = game % 3
        levels = [PickerLevel.NORMAL] * 3
        levels[seat] = level
        hero = timed_picker(levels, rng, first=game // 3).review.players[seat]
        per_game.append(hero.accuracy)
        chosen += hero.chosen
        best += hero.best
    return Accuracy(Level(level.value), per_game, chosen, best)


def build_tables(cache: str | None) -> None:
    began = time.perf_counter()
    exact.TABLES.load_or_build(None if cache is None else Path(cache))
    print(f"Picker's exact tables ready in {time.perf_counter() - began:.1f} s")


def print_picker_cpu(games: int, seed: int) -> None:
    rng = random.Random(seed)
    print(f"Picker review CPU per game ({games} games a row, process time):")
    print(f"{'players':>7} {'p50':>8} {'p99':>8} {'max':>8} {'bytes p50':>10}")
    worst = 0.0
    for players in PICKER_TABLES:
        timed = [
            timed_picker([PICKER_LEVELS[(game + seat) % 3] for seat in range(players)], rng, game)
            for game in range(games)
        ]
        seconds = [entry.seconds for entry in timed]
        sizes = [stored_bytes(entry.review) for entry in timed]
        print(
            f"{players:>7} {percentile(seconds, 0.5) * 1000:7.0f}ms"
            f" {percentile(seconds, 0.99) * 1000:7.0f}ms {max(seconds) * 1000:7.0f}ms"
            f" {percentile(sizes, 0.5):>10,}"
        )
        worst = percentile(seconds, 0.99)  # the largest table's, printed last
    verdict = "meets" if worst < CPU_TARGET_SECONDS else "breaks"
    target = f"the target of {CPU_TARGET_SECONDS} s"
    print(f"{PICKER_TABLES[-1]} players p99 {worst * 1000:.0f} ms: {verdict} {target}")


def print_picker_accuracy(games: int, seed: int) -> None:
    print(f"Reviewed accuracy, 3-player Picker against two Normals ({games} games a level):")
    print(f"{'level':>7} {'mean':>8} {'95% interval':>20} {'pooled':>8}")
    levels = (PickerLevel.HARD, PickerLevel.NORMAL, PickerLevel.EASY)
    rows = [picker_accuracy_of(level, games, seed) for level in levels]
    for row in rows:
        low, high = row.interval
        print(
            f"{row.level.value:>7} {_pct(row.mean)} [{_pct(low)}, {_pct(high)}] {_pct(row.pooled)}"
        )
    hard, normal, easy = rows
    ordered = normal.mean < hard.mean and easy.mean < normal.mean
    print("target (Hard > Normal > Easy):", "met" if ordered else "NOT met")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--accuracy", action="store_true", help="the accuracy table")
    parser.add_argument("--game", choices=("pickomino", "picker"), default="pickomino")
    parser.add_argument("--tables", action="store_true", help="Picker: build the tables first")
    parser.add_argument("--cache", default=None, help="Picker: a folder to keep the tables in")
    args = parser.parse_args(argv)
    if args.game == "picker":
        if args.accuracy or args.tables:
            build_tables(args.cache)
        if args.accuracy:
            print_picker_accuracy(args.games or 300, args.seed)
        else:
            print_picker_cpu(args.games or 20, args.seed)
        return
    if args.accuracy:
        print_accuracy(args.games or 300, args.seed)
    else:
        print_cpu(args.games or 30, args.seed)


if __name__ == "__main__":
    main()
