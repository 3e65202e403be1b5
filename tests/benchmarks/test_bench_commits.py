"""bench_commits prints a click commit's figures four ways: the batch with asyncpg's reset
and without it, the bot's one statement, and with it the other processes notified."""

import re

import pytest

from benchmarks import bench_commits


def test_it_prints_a_row_for_each_way(capsys) -> None:
    bench_commits.main(["--commits", "40", "--tasks", "4", "--sessions", "8", "--repeats", "1"])
    rows = capsys.readouterr().out.splitlines()[1:]
    assert [row.split(":")[0].strip() for row in rows] == [
        "batch, asyncpg's reset",
        "batch, no reset",
        "one statement (the bot's)",
        "one statement + NOTIFY",
    ]
    figure = r"[\d.]+"
    for row in rows:
        assert re.fullmatch(
            rf".*: commits/s {figure}, p50 ms {figure}, p99 ms {figure}, "
            rf"client CPU ms/commit {figure}, server CPU ms/commit {figure}",
            row,
        ), row


def test_a_count_below_one_is_an_error_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_commits.main(["--tasks", "0"])
    assert exit_.value.code == 2
    assert "error: argument --tasks" in capsys.readouterr().err
