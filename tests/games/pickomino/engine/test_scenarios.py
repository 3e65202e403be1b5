"""The scenario runner, through its command line exactly as SCENARIOS.md specifies."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def run_cli(scenario: object | str) -> subprocess.CompletedProcess[str]:
    text = scenario if isinstance(scenario, str) else json.dumps(scenario)
    return subprocess.run(
        [sys.executable, "-m", "bot.games.scenario", "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: path.stem)
def test_worked_examples_replay_exactly(path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot.games.scenario", str(path)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert json.loads(result.stdout) == json.loads(path.read_text())["expect"]


def test_the_worked_examples_ship() -> None:
    assert {path.stem for path in SCENARIOS} >= {"thomas_steals_32", "bridget_fails"}


FRESH = {"players": ["anne", "bob"]}


def with_turns(*steps: dict, base: dict = FRESH) -> dict:
    return {**base, "turns": [{"steps": list(steps)}]}


@pytest.mark.parametrize(
    ("scenario", "line"),
    [
        pytest.param(
            with_turns({"roll": [1, 1, 2, 2, 3, 3, 4, 4], "keep": 5}),
            "error: 0.0: there is no 5 in this roll",
            id="face-not-in-roll",
        ),
        pytest.param(
            with_turns(
                {"roll": [1, 1, 2, 2, 3, 3, 4, 4], "keep": 1},
                {"roll": [1, 2, 3, 3, 4, 4], "keep": 1},
            ),
            "error: 0.1: you have kept 1s already this turn",
            id="face-kept-already",
        ),
        pytest.param(
            with_turns({"roll": [1, 1, 2, 2, 3, 3, 4], "keep": 1}),
            "error: 0.0: a roll here has 8 dice, not 7",
            id="wrong-dice-count",
        ),
        pytest.param(
            with_turns(
                {"roll": ["W"] * 8, "keep": "W"},
                {"roll": [1], "keep": 1},
            ),
            "error: 0.1: the turn is over: every die or every face is kept. Take a tile",
            id="roll-after-turn-ended",
        ),
        pytest.param(
            with_turns({"roll": ["W"] * 8, "keep": "W"}, {"claim": {"grill": 35}}),
            "error: 0.1: you can't take 35 with 40",
            id="claim-not-an-option",
        ),
        pytest.param(
            with_turns({"roll": ["W"] * 8, "keep": "W"}, {"claim": {"steal": "zoe"}}),
            "error: 0.1: unknown player 'zoe'",
            id="unknown-player",
        ),
        pytest.param(
            with_turns({"roll": [1, 1, 2, 2, 3, 3, 4, "X"], "keep": 1}),
            "error: 0.0: 'X' is not a die face (1 to 5 or W)",
            id="not-a-face",
        ),
        pytest.param(
            with_turns({"roll": [1, 1, 2, 2, 3, 3, 4, 4]}),
            "error: 0.0: this roll needs a keep: a face can be kept from it",
            id="keepable-roll-without-keep",
        ),
        pytest.param(
            with_turns({"roll": [1, 1, 2, 2, 3, 3, 4, 4], "keep": 4}),
            "error: 0.1: the turn has not ended",
            id="turn-left-unfinished",
        ),
        pytest.param(
            {"players": ["anne"]},
            "error: A game has 2 to 7 players, not 1.",
            id="too-few-players",
        ),
        pytest.param(
            {**FRESH, "start": {"grill": [21], "stacks": {}}},
            "error: bad start position: every tile 21 to 36 must be in exactly one place",
            id="tiles-missing",
        ),
        pytest.param(
            {**FRESH, "rules": {"lower_tile": "lowest"}},
            "error: bad rule option: 'lowest' is not a valid LowerTile",
            id="bad-rule-option",
        ),
    ],
)
def test_illegal_scenarios_print_one_error_line_and_exit_2(scenario: dict, line: str) -> None:
    result = run_cli(scenario)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == line + "\n"


def test_malformed_json_is_an_error_without_a_position() -> None:
    result = run_cli('{"players": ["anne", ')
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: malformed JSON")
    assert result.stderr.count("\n") == 1


def test_unreadable_file_is_an_error() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot.games.scenario", "/nonexistent/scenario.json"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: cannot read /nonexistent/scenario.json")


def test_auto_claim_closes_a_turn_that_failed_by_itself() -> None:
    # Eight 3s: all dice kept without a worm, so the turn fails on its own;
    # the claim step SCENARIOS.md still asks for is "auto", which then fails.
    result = run_cli(with_turns({"roll": [3] * 8, "keep": 3}, {"claim": "auto"}))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["current"] == "bob"


def test_auto_claim_takes_the_only_option() -> None:
    result = run_cli(with_turns({"roll": ["W"] * 8, "keep": "W"}, {"claim": "auto"}))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["stacks"] == {"anne": [36], "bob": []}
