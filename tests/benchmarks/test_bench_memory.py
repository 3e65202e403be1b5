"""bench_memory does a game's end work in threads and prints the RSS as it goes."""

import re

import pytest

from benchmarks import bench_memory


def test_it_prints_the_rss_before_and_after_the_work(capsys) -> None:
    bench_memory.main(["--work", "pictures", "--games", "3", "--threads", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"pictures, 2 thread\(s\): start \d+ MB", lines[0])
    assert re.fullmatch(r"3 games: \d+ MB", lines[-1])
    assert bench_memory.rss_mb() > 0


def test_a_count_below_one_is_an_error_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_memory.main(["--games", "0"])
    assert exit_.value.code == 2
    assert "error: argument --games" in capsys.readouterr().err
