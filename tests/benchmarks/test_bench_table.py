"""bench_table runs the bot process with the table on against the stand-in, plays at the
tables' tabs then in the chat, and prints the time to every tab and the bot's CPU per
table action beside a chat click's."""

import re
from pathlib import Path

import pytest

from benchmarks import bench_table
from tests.benchmarks.stand_in_tables import kept_picker_tables


def test_two_tables_print_their_times_and_the_bots_cpu(tmp_path: Path, capsys) -> None:
    cache = tmp_path / "cache"
    kept_picker_tables(cache)  # the bot builds none (a minute) before it is measured
    brief = ["--tables", "2", "--seconds", "3", "--think", "0.1-0.3", "--cache-dir", str(cache)]
    bench_table.main(brief)
    lines = capsys.readouterr().out.splitlines()
    heading = "bench_table: 2 tables of 3 tabs, 3 s at the table then 3 s in the chat"
    assert any(line.startswith(heading) for line in lines), lines
    for kind, noun in (("table actions", "table action"), ("chat clicks", "chat click")):
        line = next(line for line in lines if line.startswith(f"  {kind}:"))
        found = re.fullmatch(
            rf"  {kind}: (\d+) \([\d.]+/s\), to every tab p50 ([\d.]+) ms, p99 ([\d.]+) ms, "
            rf"refused (\d+), missed (\d+); bot CPU/{noun} ([\d.]+) ms",
            line,
        )
        assert found is not None, line
        assert int(found[1]) > 0 and 0 < float(found[2]) <= float(found[3])
        assert (found[4], found[5]) == ("0", "0")
        assert float(found[6]) > 0
    verdict = next(line for line in lines if line.startswith("  target"))
    assert re.fullmatch(r"  target p99 < 100 ms: (met|MISSED)", verdict)
    caught_up = next(line for line in lines if line.startswith("  live messages"))
    assert re.fullmatch(
        r"  live messages caught up with the table [\d.]+ s after its window", caught_up
    )
    assert not [line for line in lines if line.startswith("!")]  # no error in the bot's log


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--tables", "0"], "argument --tables"),
        (["--seconds", "0"], "argument --seconds: 0 is not more than 0"),
        (["--think", "soon"], "argument --think"),
    ],
)
def test_bad_input_is_an_error_line(argv, said, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_table.main(argv)
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err
