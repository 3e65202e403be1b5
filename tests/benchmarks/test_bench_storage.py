"""bench_storage plays whole games through the session service and prints what each
finished game leaves in the database, table by table."""

import re

import pytest

from benchmarks import bench_storage


def test_it_prints_the_bytes_a_finished_game_leaves(capsys) -> None:
    bench_storage.main(["--games", "6"])
    lines = capsys.readouterr().out.splitlines()
    total = re.fullmatch(
        r"6 finished games \(6 recorded, 0 event rows left\): ([\d.]+) KiB per game", lines[0]
    )
    assert total is not None, lines
    tables = {}
    for line in lines[1:]:
        row = re.fullmatch(r"  (\w+) +(\d+) bytes per game", line)
        assert row is not None, line
        tables[row.group(1)] = int(row.group(2))
    assert tables["sessions"] > 0  # each game's row, its events dropped when it ended
    assert sum(tables.values()) / 1024 == pytest.approx(float(total.group(1)), abs=0.05)
