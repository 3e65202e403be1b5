"""bot.games.picker.bench plays random games and prints the median rate of its repeats."""

import re

import pytest

from bot.games.picker import bench


def test_it_prints_the_median_rate_and_the_target(capsys) -> None:
    bench.main(["--games", "5", "--repeats", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "5 games of 4 players a repeat, 40 actions a game, 3 repeats"
    rates = re.fullmatch(
        r"games per second \(median\): +([\d,]+) +\(min ([\d,]+), max ([\d,]+)\)", lines[1]
    )
    assert rates is not None, lines[1]
    median, low, high = (int(rate.replace(",", "")) for rate in rates.groups())
    assert 0 < low <= median <= high
    assert re.fullmatch(r"\(this (meets|is below) the target of 5,000 games per second\)", lines[2])


def test_no_repeat_is_an_error_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench.main(["--repeats", "0"])
    assert exit_.value.code == 2
    assert "error: --games and --repeats must be at least 1" in capsys.readouterr().err
