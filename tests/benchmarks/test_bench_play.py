"""bench_play plays whole games in `make play`'s page and prints the clicks' times as the
page measured them."""

import re

from benchmarks import bench_play
from tests.chromium import skip_if_opted_out


def test_a_picker_game_prints_the_times_of_its_clicks(capsys) -> None:
    skip_if_opted_out()
    bench_play.main(["--games", "1", "--game", "picker", "--ideal-discord"])
    said = capsys.readouterr().out.strip()
    figures = re.fullmatch(
        r"play page, click to updated message drawn, (\d+) clicks over 1 Picker game\(s\): "
        r"p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms \(ideal Discord; target p99 < 100 ms\)",
        said,
    )
    assert figures is not None, said
    # Three players, two of them people, keep a die each in each of 6 rounds.
    assert int(figures[1]) == 12
    assert 0 < float(figures[2]) <= float(figures[3]) <= float(figures[4])
