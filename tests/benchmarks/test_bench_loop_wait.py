"""bench_loop_wait prints the loop's wait beside a review at both switch intervals."""

import re
import sys

import pytest

from benchmarks import bench_loop_wait


def test_it_prints_a_row_for_each_setting_and_leaves_the_interval_as_it_was(capsys) -> None:
    before = sys.getswitchinterval()
    bench_loop_wait.main(["--clicks", "3", "--requests", "2", "--repeats", "1"])
    rows = capsys.readouterr().out.splitlines()[2:]
    assert [row[:28].strip() for row in rows] == [
        "no review",
        "review, Python's 5 ms",
        "review, the bot's 0.5 ms",
    ]
    figures = r"\s+\d+\.\dms\s+\d+\.\dms"
    assert re.fullmatch(r"no review" + figures + r"\s*", rows[0])
    assert all(re.fullmatch(r".{28}" + figures + r"\s+\d+\.\d\d", row) for row in rows[1:])
    assert sys.getswitchinterval() == before


def test_a_count_below_one_is_an_error_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_loop_wait.main(["--repeats", "0"])
    assert exit_.value.code == 2
    assert "error: argument --repeats" in capsys.readouterr().err
