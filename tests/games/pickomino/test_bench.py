"""bot.games.pickomino.bench plays random games and prints their rate."""

import re

import pytest

from bot.games.pickomino import bench


def test_it_prints_the_games_and_actions_a_second(capsys) -> None:
    bench.main(["--games", "5", "--players", "4", "--extrawurm"])
    lines = capsys.readouterr().out.splitlines()
    played = re.fullmatch(
        r"5 games of 4 players with Extrawurm, ([\d,]+) actions \((\d+) a game\) in [\d.]+ s",
        lines[0],
    )
    assert played is not None, lines[0]
    assert int(played.group(1).replace(",", "")) >= 5 * 20  # a game is tens of actions
    assert float(lines[1].split(":")[1].replace(",", "")) > 0
    assert float(lines[2].split(":")[1].replace(",", "")) > 0
    assert len(lines) == 3  # the target is for three players of the base game only


def test_the_target_is_told_for_three_players(capsys) -> None:
    bench.main(["--games", "3"])
    assert re.search(r"\(this (meets|is below) the target of 1,000", capsys.readouterr().out)


def test_no_game_is_an_error_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench.main(["--games", "0"])
    assert exit_.value.code == 2
    assert "error: --games must be at least 1" in capsys.readouterr().err
