import json
import subprocess
import sys

import pytest

from bot.games.pickomino.ai.odds import main, parse_faces, parse_tiles
from bot.games.pickomino.engine import Face

TILE_KEYS = [str(tile) for tile in range(21, 37)]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return json.loads(captured.out)


def test_default_output_shape(capsys: pytest.CaptureFixture[str]) -> None:
    report = run(capsys)
    assert list(report) == ["at_least", "exactly", "expected_worms"]
    assert list(report["at_least"]) == TILE_KEYS
    assert list(report["exactly"]) == TILE_KEYS
    assert all(0 <= p <= 1 for p in [*report["at_least"].values(), *report["exactly"].values()])
    chances = list(report["at_least"].values())
    assert chances == sorted(chances, reverse=True)
    assert report["expected_worms"] == pytest.approx(1.644730, abs=1e-6)


def test_kept_grill_and_top(capsys: pytest.CaptureFixture[str]) -> None:
    report = run(capsys, "--kept", "W,W,5", "--grill", "21-24,30", "--top", "25")
    assert report["at_least"]["21"] == pytest.approx(0.919305, abs=1e-6)
    assert report["at_least"]["36"] == 0.0  # 15 + five dice of 1 to 4 reach 35 at most
    assert -2 < report["expected_worms"] < 3
    # With 35 kept, only a 1 or a worm... worms are kept already: 1 to 4 are left.
    report = run(capsys, "--kept", "5,5,5,5,W,W,W")
    assert report["at_least"]["36"] == pytest.approx(4 / 6, abs=1e-6)
    assert report["exactly"]["36"] == pytest.approx(1 / 6, abs=1e-6)


def test_the_top_tile_comes_off_the_default_grill(capsys: pytest.CaptureFixture[str]) -> None:
    with_top = run(capsys, "--top", "36")
    assert with_top["expected_worms"] < run(capsys)["expected_worms"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--kept", "W,X"],
        ["--kept", "1,1,1,1,1,1,1,1,1"],
        ["--grill", "30-22"],
        ["--grill", "20-25"],
        ["--grill", "abc"],
        ["--top", "37"],
        ["--grill", "21-36", "--top", "25"],
        ["--bogus"],
        ["--kept"],
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")


def test_runs_as_a_module() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "bot.games.pickomino.ai.odds", "--kept", "W"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert set(json.loads(ok.stdout)) == {"at_least", "exactly", "expected_worms"}
    bad = subprocess.run(
        [sys.executable, "-m", "bot.games.pickomino.ai.odds", "--top", "x"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1


def test_parsers() -> None:
    assert parse_faces("W, w,5") == (Face.WORM, Face.WORM, Face.FIVE)
    assert parse_faces("") == ()
    assert parse_tiles("22,25,30") == (22, 25, 30)
    assert parse_tiles("21-23,22") == (21, 22, 23)
