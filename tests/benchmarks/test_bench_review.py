"""The review benchmark's targets at a smaller size: Hard's reviewed accuracy at least
99% and Hard > Normal > Easy against Normal in two-player games; a 7-player game's review
well within a second of CPU; the table printed."""

from __future__ import annotations

import random
import re

import pytest

from benchmarks import bench_review
from bot.games.pickomino.ai.players import Level
from bot.games.pickomino.engine import Rules

GAMES = 8


def test_the_levels_are_ordered_by_their_reviewed_accuracy():
    hard, normal, easy = (
        bench_review.accuracy_of(level, GAMES, seed=3)
        for level in (Level.HARD, Level.NORMAL, Level.EASY)
    )
    assert hard.mean >= 0.99
    assert normal.mean < hard.mean
    assert easy.mean < normal.mean


def test_a_seven_player_review_takes_well_under_a_second_of_cpu():
    rules = Rules()
    levels = bench_review.levels_for(7, 0)
    rng = random.Random(5)
    bench_review.timed_review(levels, rng, rules, 0)  # the solver's tables, once
    timed = [bench_review.timed_review(levels, rng, rules, game) for game in range(2)]
    assert max(entry.seconds for entry in timed) < bench_review.CPU_TARGET_SECONDS


def test_a_bad_count_is_refused_before_any_game(capsys):
    with pytest.raises(SystemExit):
        bench_review.main(["--games", "0"])
    assert "error:" in capsys.readouterr().err


def test_picker_easy_keeps_fewer_chances_than_hard():
    # Without the exact tables (the suite never builds them): the look-ahead judges.
    hard = bench_review.picker_accuracy_of(bench_review.PickerLevel.HARD, 6, seed=2)
    easy = bench_review.picker_accuracy_of(bench_review.PickerLevel.EASY, 6, seed=2)
    assert easy.mean < hard.mean


def test_a_seven_player_picker_review_takes_under_a_second_of_cpu():
    levels = [bench_review.PICKER_LEVELS[seat % 3] for seat in range(7)]
    timed = bench_review.timed_picker(levels, random.Random(3), 0)
    assert timed.seconds < bench_review.CPU_TARGET_SECONDS


def test_the_cpu_table_prints_each_table_size_and_variant_and_the_target(capsys):
    bench_review.main(["--games", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Review CPU per game (1 games a row, process time, warm caches):"
    rows = [
        re.fullmatch(r" +(\d) +(base|extrawurm) +(\d+)ms +(\d+)ms +(\d+)ms +([\d,]+)", line)
        for line in lines[2:8]
    ]
    assert [(row[1], row[2]) for row in rows if row] == [
        (players, variant) for players in "247" for variant in ("base", "extrawurm")
    ]
    assert all(int(row[3]) <= int(row[4]) <= int(row[5]) for row in rows)  # one game: equal
    sizes = [int(row[6].replace(",", "")) for row in rows]
    stored = re.fullmatch(r"storage per reviewed game: mean ([\d,]+) B, max ([\d,]+) B", lines[8])
    assert stored is not None and int(stored[2].replace(",", "")) == max(sizes)
    worst = max(int(row[4]) for row in rows if row[1] == "7")
    verdict = "meets" if worst < bench_review.CPU_TARGET_SECONDS * 1000 else "breaks"
    assert lines[9] == f"7 players p99 {worst} ms: {verdict} the target of 1.0 s"
