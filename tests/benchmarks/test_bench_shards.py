"""bench_shards runs the bot's processes on PostgreSQL against the stand-in and prints
each setup's clicks a second and callback times."""

import re

import pytest

from benchmarks import bench_shards


def test_two_shard_processes_print_their_figures(capsys) -> None:
    bench_shards.main(
        ["--games", "2", "--seconds", "2", "--repeats", "1", "--processes", "2", "--ideal-discord"]
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("bench_shards: 2 concurrent games in 4 guilds, 2 s each run")
    figures = re.fullmatch(
        r"2 processes: +([\d.]+) clicks/s, callback p50 +([\d.]+) ms, p99 +([\d.]+) ms, "
        r"invalid requests \(401/403/429\) at most (\d+) a run, "
        r"answered after 3 s or never at most (\d+) a run",
        lines[-1],
    )
    assert figures is not None, lines
    assert float(figures[1]) > 0 and 0 < float(figures[2]) <= float(figures[3])
    assert figures[4] == "0" and figures[5] == "0"
    assert not any(line.startswith("1 process") for line in lines)  # --processes 2 only


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--seconds", "0"], "argument --seconds: 0 is not more than 0"),
        (["--processes", "3"], "argument --processes: invalid choice"),
    ],
)
def test_bad_input_is_an_error_line(argv, said, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_shards.main(argv)
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err
