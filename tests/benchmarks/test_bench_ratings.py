"""benchmarks/bench_ratings.py at a small count: the ratings find the computer players'
order, the rebuild gives the live ratings back to the last digit, and each game's run
prints its ratings, head to head and costs.

At a few dozen games the order of Normal and Hard is noise (the benchmark's 2,000 games
barely part them), so what is checked on a reduced deterministic set, every table Easy,
Normal and Hard (the first player drawn), 45 games with fixed dice, is that the ratings
put Easy below both; `ordered` itself is checked on made-up ratings."""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks import bench_ratings
from benchmarks.bench_ratings import Report, in_other_orders, pairs_at_tables, rate
from benchmarks.support.rated_tables import GAMES, LEVELS, Played, head_to_head, play_pickomino
from bot.history.ratings import Rating
from tests.benchmarks.stand_in_tables import kept_picker_tables

REPO = Path(__file__).resolve().parents[2]


def test_the_ratings_order_the_levels_and_the_rebuild_equals_the_live(tmp_path) -> None:
    games = [play_pickomino(LEVELS, random.Random(number)) for number in range(45)]
    report = asyncio.run(rate(games, tmp_path / "ratings.db", int(time.time())))
    mu = {level: rating.mu for level, rating in report.levels.items()}
    assert mu["easy"] + 10 < min(mu["normal"], mu["hard"]), report.levels
    assert report.live_equals_rebuilt
    assert {level: r.games for level, r in report.levels.items()} == {
        "easy": 45,
        "normal": 45,
        "hard": 45,
    }


def test_the_order_and_the_intervals_are_read_from_mu_and_sigma() -> None:
    def report(hard: float, normal: float, easy: float, sigma: float) -> Report:
        levels = {"easy": easy, "normal": normal, "hard": hard}
        rated = {level: Rating(mu, sigma, 100) for level, mu in levels.items()}
        return Report(rated, True, [], 0.0, 0.0, 100)

    assert report(30, 28, 20, 1.5).ordered and not report(30, 28, 20, 1.5).apart
    assert report(30, 23, 16, 1.5).apart
    assert not report(28, 30, 20, 0.5).ordered and not report(28, 30, 20, 0.5).apart


def test_other_orders_of_the_same_games_tell_how_much_the_verdict_is_their_order() -> None:
    clear = [Played(("easy", "normal", "hard"), (3, 2, 1), (1, 5, 9))] * 40
    assert in_other_orders(clear, 5, seed=1) == (5, 5, 5)
    # Hard ahead of Normal in half the games: the order holds in some orders, not all.
    even = [
        Played(("easy", "normal", "hard"), (3, 2, 1) if n % 2 else (3, 1, 2), (1, 5, 5))
        for n in range(40)
    ]
    orders, held, separated = in_other_orders(even, 20, seed=1)
    assert orders == 20 and 0 < held < 20 and separated == 0


def test_mixed_tables_rebuild_to_the_last_digit(tmp_path) -> None:
    games = [GAMES["pickomino"].play(number) for number in range(1, 7)]
    assert any(len(set(g.levels)) < len(g.levels) for g in games)  # a level seated twice
    assert any(game.variant == "extrawurm" for game in games)  # a quarter with Extrawurm
    report = asyncio.run(rate(games, tmp_path / "ratings.db", int(time.time())))
    assert report.live_equals_rebuilt


def test_head_to_head_counts_every_pair_of_two_levels_at_a_table() -> None:
    games = [
        Played(("hard", "normal", "normal"), (1, 2, 3), (9, 5, 1)),  # ahead of both
        Played(("hard", "hard", "normal"), (2, 3, 1), (5, 1, 9)),  # behind, twice
        Played(("normal", "hard", "easy"), (1, 1, 3), (5, 5, 1)),  # shared: a half
        Played(("hard", "normal"), (1, 2), (5, 1)),  # two seats: not counted
    ]
    pairs = head_to_head(games, "hard", "normal", range(3, 6))
    assert pairs is not None
    assert pairs.pairs == 5
    assert pairs.share == pytest.approx(2.5 / 5)
    assert 0.0 <= pairs.low < pairs.share < pairs.high <= 1.0
    assert head_to_head(games, "easy", "normal", range(4, 6)) is None


def test_head_to_head_is_also_told_without_the_third_level_and_for_extrawurm() -> None:
    games = [
        Played(("hard", "normal", "normal"), (1, 2, 3), (9, 5, 1)),  # no Easy: ahead of both
        Played(("hard", "normal", "easy"), (2, 1, 3), (5, 9, 1), "extrawurm"),  # behind
        Played(("normal", "easy", "easy"), (1, 2, 3), (9, 5, 1)),
    ]
    pairs = pairs_at_tables(games)
    assert pairs["all", "hard", "normal"].share == pytest.approx(2 / 3)
    assert pairs["no easy seated", "hard", "normal"].share == 1.0
    assert pairs["extrawurm", "hard", "normal"].share == 0.0
    assert pairs["no hard seated", "normal", "easy"].pairs == 2
    assert pairs["all", "normal", "easy"].pairs == 3
    assert ("no normal seated", "hard", "easy") not in pairs  # every such table seats a Normal


def test_a_bad_count_is_an_error_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_ratings.main(["--games", "0"])
    assert exit_.value.code == 2
    assert "argument --games: 0 is less than 1" in capsys.readouterr().err


RATED = re.compile(r"(hard|normal|easy) +(\d+) +([\d.]+) +([\d.]+) +(-?[\d.]+) +([\d.]+) +[\d,]+")
PAIRS = re.compile(
    r"(hard|normal) ahead of (normal|easy)( \((?:extrawurm|no (?:hard|normal|easy) seated)\))? +"
    r"([\d,]+) pairs +([\d.]+)% +"
    r"95% CI +([\d.]+)% to +([\d.]+)%"
)


def _printed(lines: list[str], games: int) -> dict[str, re.Match[str]]:
    """The ratings' rows, checked against the rest of what the run printed."""
    ratings = {found[1]: found for line in lines if (found := RATED.fullmatch(line))}
    assert sorted(ratings) == ["easy", "hard", "normal"]
    for found in ratings.values():
        mu, sigma, low, high = (float(found[i]) for i in range(3, 7))
        assert low == pytest.approx(mu - 2 * sigma, abs=0.002)
        assert high == pytest.approx(mu + 2 * sigma, abs=0.002)
    assert sum(int(found[2]) for found in ratings.values()) >= games * 2  # two levels a table
    mus = [float(ratings[level][3]) for level in ("hard", "normal", "easy")]
    order = "yes" if mus[0] > mus[1] > mus[2] else "NO"
    assert f"order Hard > Normal > Easy: {order}" in lines
    assert "rebuild from history equals the live ratings to the last digit: yes" in lines
    other = [line for line in lines if line.startswith("the same games in ")]
    assert len(other) == 1
    assert re.fullmatch(
        r"the same games in 100 other orders: Hard > Normal > Easy in \d+, apart in \d+", other[0]
    )
    assert re.fullmatch(r"save with its rating: p50 [\d.]+ ms, p99 [\d.]+ ms", lines[-3])
    assert re.fullmatch(rf"rebuild of {games} games: \d+ ms", lines[-2])
    assert re.fullmatch(rf"30-day rating board, replayed from {games} games: \d+ ms", lines[-1])
    for found in (found for line in lines if (found := PAIRS.fullmatch(line))):
        share, low, high = (float(found[i]) for i in (5, 6, 7))
        assert 0 <= low <= share <= high <= 100
    return ratings


def test_the_smallest_pickomino_run_prints_ratings_head_to_head_and_costs(capsys) -> None:
    # Seed 0's first six tables: an Extrawurm one with Hard and Normal among them.
    bench_ratings.main(["--games", "6", "--seed", "0", "--workers", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(
        r"6 games of pickomino in one community, 2-5 seats, a share of 25% with Extrawurm, "
        r"played in \d+ s",
        lines[0],
    )
    _printed(lines, 6)
    heads = [found.group(1, 2, 3) for line in lines if (found := PAIRS.fullmatch(line))]
    assert ("hard", "normal", None) in heads
    assert ("hard", "normal", " (extrawurm)") in heads


def test_the_smallest_picker_run_rates_picker_at_three_to_seven_seats(tmp_path: Path) -> None:
    kept_picker_tables(tmp_path)
    # A process of its own: the tables it loads are the process's (the suite's other
    # tests play without any).
    command = [sys.executable, "-m", "benchmarks.bench_ratings", "--game", "picker"]
    # Seed 3's first four tables: 3 and 4 seats, every level seated.
    command += ["--games", "4", "--seed", "3", "--workers", "1", "--cache-dir", str(tmp_path)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"4 games of picker in one community, 3-7 seats, played in \d+ s", lines[0])
    _printed(lines, 4)
