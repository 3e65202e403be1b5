"""benchmarks/bench_ratings.py at a small count: the ratings find the computer players'
order, and the rebuild gives the live ratings back to the last digit.

At a few dozen games of mixed tables the order of Normal and Hard is noise, so the
order is checked on a reduced deterministic set: every table Easy, Normal and Hard (the
first player drawn), 45 games with fixed dice."""

from __future__ import annotations

import asyncio
import random
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
