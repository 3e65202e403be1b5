"""The benchmark scripts refuse a count they cannot play with argparse's `error:` line."""

import argparse
from concurrent.futures import ThreadPoolExecutor

import pytest

import benchmarks.bench_bots as bench_bots
from benchmarks import bench_picker_bots
from benchmarks.support.arguments import count, duration, positive, seconds_range


def test_counts_read_whole_numbers_and_refuse_the_rest() -> None:
    assert count("0") == 0 and count("12") == 12
    assert positive("1") == 1
    for bad, kind in (("-1", count), ("0", positive), ("two", count), ("1.5", positive)):
        with pytest.raises(argparse.ArgumentTypeError):
            kind(bad)


def test_times_read_numbers_and_ranges_and_refuse_the_rest() -> None:
    assert duration("0.25") == 0.25
    assert seconds_range("2-8") == (2.0, 8.0) and seconds_range("0.5") == (0.5, 0.5)
    for bad in ("0", "-1", "nan", "soon"):
        with pytest.raises(argparse.ArgumentTypeError):
            duration(bad)
    for bad in ("8-2", "-1", "a-b", "2-"):
        with pytest.raises(argparse.ArgumentTypeError):
            seconds_range(bad)


@pytest.mark.parametrize(
    ("main", "argv", "said"),
    [
        (bench_bots.main, ["--games", "-4"], "argument --games: -4 is less than 0"),
        (bench_bots.main, ["--workers", "0"], "argument --workers: 0 is less than 1"),
        (bench_picker_bots.main, ["--games", "x"], "argument --games: 'x' is not a whole number"),
    ],
)
def test_a_bad_count_is_an_error_line_before_any_game(main, argv, said, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert "error: " in captured.err and said in captured.err
    assert "Traceback" not in captured.err and not captured.out


def test_a_table_with_fewer_games_than_seats_is_left_out(monkeypatch, capsys) -> None:
    played: list[str] = []

    def play(number, matchup):
        played.append(matchup.name)
        won = 1.0 if number % matchup.seats == 0 else 0.0
        return won, won, [0.001]

    monkeypatch.setattr(bench_bots, "play", play)
    monkeypatch.setattr(bench_bots, "ProcessPoolExecutor", ThreadPoolExecutor)  # play is local
    tables = ["--games", "2", "--games-4p", "3", "--games-extrawurm", "0"]
    bench_bots.main([*tables, "--only", "optimal_bot", "--workers", "1"])
    rows = capsys.readouterr().out
    assert "hard vs optimal_bot (2p)" in rows
    assert "(4p)" not in rows  # three games: no whole deal of four
    assert played == ["hard vs optimal_bot (2p)"] * 2
