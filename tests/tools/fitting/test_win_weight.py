import re

import pytest

import tools.fitting.win_weight as win_weight

ROW = re.compile(
    r" *([\d.]+) +([\d.]+)% +([\d.]+)% to +([\d.]+)% +([\d.]+)% +([\d.]+)% to +([\d.]+)%(.*)"
)


def test_each_weight_prints_hards_first_places_and_opponents_beaten(capsys) -> None:
    win_weight.main(["--games", "6", "--players", "3", "--weights", "1", "0", "--workers", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "6 base games a weight: Hard against 2 Normals, paired deals"
    rows = [found for line in lines if (found := ROW.fullmatch(line))]
    assert [float(row[1]) for row in rows] == [1.0, 0.0]
    for row in rows:
        first, low, high = (float(row[i]) for i in (2, 3, 4))
        beaten, beaten_low, beaten_high = (float(row[i]) for i in (5, 6, 7))
        assert 0 <= low <= first <= high <= 100
        assert 0 <= beaten_low <= beaten <= beaten_high <= 100
        assert first <= beaten  # a win beats every opponent
    assert rows[0][8] == ""
    assert re.fullmatch(r"  first [+-][\d.]+% \[.*\], beaten [+-][\d.]+% \[.*\]", rows[1][8])


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["--weights", "1.5"], "--weights: each from 0 to 1"),
        (["--players", "2"], "argument --players: invalid choice: 2"),
        (["--games", "2", "--players", "3"], "--games: at least 3, one deal"),
    ],
)
def test_a_weight_or_table_it_cannot_play_is_an_error_line(argv, error, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        win_weight.main(argv)
    assert exit_.value.code == 2
    assert error in capsys.readouterr().err
