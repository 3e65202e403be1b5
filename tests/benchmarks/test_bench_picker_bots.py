"""bench_picker_bots plays Picker's Hard against each opponent in paired deals and prints
its shares and its decision times; the exact tables are loaded from a kept file."""

import re
import subprocess
import sys
from pathlib import Path

from tests.benchmarks.stand_in_tables import kept_picker_tables

REPO = Path(__file__).resolve().parents[2]

ROW = re.compile(
    r"(hard vs \d \w+ \((\d)p\)) +(\d+) +([\d.]+)% +([\d.]+)% to +([\d.]+)% +(\d+)% +\d+%"
)
TIMES = re.compile(r"hard decision CPU ms, (\d) players: p50 +([\d.]+), p99 +([\d.]+), .*")


def test_each_matchup_prints_its_share_and_interval_and_the_times(tmp_path: Path) -> None:
    kept_picker_tables(tmp_path)
    smallest = ["--games", "3", "--five", "5", "--eight", "0", "--samples", "50"]
    # A process of its own: the tables it loads are the process's (the suite's other
    # tests play without any).
    command = [sys.executable, "-m", "benchmarks.bench_picker_bots", *smallest]
    command += ["--workers", "1", "--cache-dir", str(tmp_path)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("3-player exact tables: ready in 0 s")  # loaded, not built
    rows = [row for line in lines if (row := ROW.fullmatch(line))]
    assert [row[1] for row in rows] == [
        "hard vs 2 lookahead (3p)",
        "hard vs 2 greedy (3p)",
        "hard vs 4 greedy (5p)",
        "hard vs 2 normal (3p)",
    ]  # no 8-player games: --eight 0
    for row in rows:
        seats, games, fair = int(row[2]), int(row[3]), int(row[7])
        share, low, high = float(row[4]), float(row[5]), float(row[6])
        assert games == seats  # one deal: a game from every seat
        assert 0 <= low <= share <= high <= 100
        assert fair == round(100 / seats)
    times = [found for line in lines if (found := TIMES.fullmatch(line))]
    assert [found[1] for found in times] == ["3", "5"]
    assert all(0 < float(found[2]) <= float(found[3]) for found in times)
    assert re.fullmatch(r"in \d+ s with 1 workers", lines[-1])
