"""Picker scenario files replayed by run_scenario and by the command, as SCENARIOS.md says."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.games.picker.scenario import ScenarioError, run_scenario
from tests.games.scenario_command import as_process, in_process

FOLDER = Path(__file__).parent / "scenarios"
POSITIONS = sorted(path for path in FOLDER.glob("*.json") if not path.stem.startswith("error_"))
ERRORS = sorted(FOLDER.glob("error_*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def run_cli(argument: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command (in this process)."""
    return in_process(argument, stdin)


def test_the_worked_examples_ship() -> None:
    assert {path.stem for path in POSITIONS} >= {
        "scenarios_md_example",
        "two_ones_first_keeper_is_picker",
    }


@pytest.mark.parametrize("path", POSITIONS, ids=lambda path: path.stem)
def test_positions_replay_exactly(path: Path) -> None:
    assert run_scenario(load(path)) == load(path)["expect"]


@pytest.mark.parametrize("path", POSITIONS, ids=lambda path: path.stem)
def test_the_command_prints_the_position(path: Path) -> None:
    result = run_cli(str(path))
    assert (result.returncode, result.stderr) == (0, "")
    assert json.loads(result.stdout) == load(path)["expect"]


def test_the_command_as_a_process_prints_the_position_and_an_error_line() -> None:
    path = FOLDER / "scenarios_md_example.json"
    result = as_process("-", stdin=path.read_text(encoding="utf-8"))
    assert (result.returncode, result.stderr) == (0, "")
    assert json.loads(result.stdout) == load(path)["expect"]
    [broken, *_] = ERRORS
    refused = as_process(str(broken))
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == load(broken)["expect_error"] + "\n"


@pytest.mark.parametrize("path", ERRORS, ids=lambda path: path.stem)
def test_broken_scenarios_raise_with_their_location(path: Path) -> None:
    with pytest.raises(ScenarioError) as refused:
        run_scenario(load(path))
    assert refused.value.line() == load(path)["expect_error"]


@pytest.mark.parametrize("path", ERRORS, ids=lambda path: path.stem)
def test_the_command_prints_one_error_line_and_exits_2(path: Path) -> None:
    result = run_cli("-", stdin=path.read_text(encoding="utf-8"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == load(path)["expect_error"] + "\n"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('{"players": ["a", "b", "c"], ', "error: malformed JSON: Expecting property name"),
        ("[1, 2, 3]", "error: a scenario is a JSON object"),
        ('{"game": "chess", "players": ["a", "b"]}', "error: unknown game 'chess'"),
        (
            '{"game": "picker", "players": ["a", "b", "c"], "rounds": [[1, 2]]}',
            "error: 0: a round is an object",
        ),
        (
            '{"game": "picker", "players": ["a", "b", "c"],'
            ' "rounds": [{"rolls": [[1, 2, 3]], "picks": [3]}]}',
            "error: 0.0: a pick is a colour name",
        ),
        ("[" * 100_000, "error: malformed JSON"),
    ],
)
def test_malformed_input_gets_one_error_line_and_no_traceback(text: str, line: str) -> None:
    result = run_cli("-", stdin=text)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(line) and result.stderr.count("\n") == 1


def test_an_unreadable_file_is_an_error_line() -> None:
    result = as_process(str(FOLDER / "no_such_file.json"))
    assert result.returncode == 2
    assert result.stderr.startswith("error: cannot read ")


def test_scenario_error_carries_location_and_reason() -> None:
    error = ScenarioError("1.2", "the red die is kept already")
    assert (error.location, error.reason) == ("1.2", "the red die is kept already")
    assert error.line() == "error: 1.2: the red die is kept already"
    assert ScenarioError("", "malformed JSON").line() == "error: malformed JSON"
