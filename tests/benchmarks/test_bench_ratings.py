"""benchmarks/bench_ratings.py at a small count: the ratings find the computer players'
order, and the rebuild gives the live ratings back to the last digit.

At a few dozen games of mixed tables the order of Normal and Hard is noise, so the
order is checked on a reduced deterministic set: every table Easy, Normal and Hard (the
first player drawn), 45 games with fixed dice."""

from __future__ import annotations

import asyncio
import random
import re
import time

import pytest

from benchmarks import bench_ratings
from benchmarks.bench_ratings import LEVELS, play, play_table, rate


def test_the_ratings_order_the_levels_and_the_rebuild_equals_the_live(tmp_path) -> None:
    games = [play_table(LEVELS, random.Random(number)) for number in range(45)]
    report = asyncio.run(rate(games, tmp_path / "ratings.db", int(time.time())))
    assert report.ordered, report.levels
    assert report.live_equals_rebuilt
    assert {level: r.games for level, r in report.levels.items()} == {
        "easy": 45,
        "normal": 45,
        "hard": 45,
    }


def test_mixed_tables_rebuild_to_the_last_digit(tmp_path) -> None:
    games = [play(number) for number in range(1, 13)]
    assert any(len(set(g.levels)) < len(g.levels) for g in games)  # a level seated twice
    report = asyncio.run(rate(games, tmp_path / "ratings.db", int(time.time())))
    assert report.live_equals_rebuilt


def test_a_bad_count_is_an_error_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_ratings.main(["--games", "0"])
    assert exit_.value.code == 2
    assert "argument --games: 0 is less than 1" in capsys.readouterr().err


def test_the_smallest_run_prints_each_levels_rating_and_the_costs(capsys) -> None:
    bench_ratings.main(["--games", "8", "--workers", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"8 games in one community, 2-5 seats, played in \d+ s", lines[0])
    rated = re.compile(
        r"(hard|normal|easy) +(\d+) +([\d.]+) +([\d.]+) +(-?[\d.]+) +([\d.]+) +[\d,]+"
    )
    ratings = {found[1]: found for line in lines if (found := rated.fullmatch(line))}
    assert sorted(ratings) == ["easy", "hard", "normal"]
    for found in ratings.values():
        mu, sigma, low, high = (float(found[i]) for i in range(3, 7))
        assert low == pytest.approx(mu - 2 * sigma, abs=0.002)
        assert high == pytest.approx(mu + 2 * sigma, abs=0.002)
    assert sum(int(found[2]) for found in ratings.values()) >= 8 * 2  # two levels a table at least
    order = (
        "yes"
        if float(ratings["hard"][3]) > float(ratings["normal"][3]) > float(ratings["easy"][3])
        else "no"
    )
    assert f"order Hard > Normal > Easy: {order}" in lines
    assert "rebuild from history equals the live ratings to the last digit: yes" in lines
    assert re.fullmatch(r"save with its rating: p50 [\d.]+ ms, p99 [\d.]+ ms", lines[-3])
    assert re.fullmatch(r"rebuild of 8 games: \d+ ms", lines[-2])
    assert re.fullmatch(r"30-day rating board, replayed from 8 games: \d+ ms", lines[-1])
