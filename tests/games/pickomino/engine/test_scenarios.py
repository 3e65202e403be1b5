"""The scenario runner, through its command line exactly as SCENARIOS.md specifies."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.games.scenario_command import as_process, in_process

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def run_cli(scenario: object | str) -> subprocess.CompletedProcess[str]:
    """The command on `scenario` given on standard input (in this process)."""
    text = scenario if isinstance(scenario, str) else json.dumps(scenario)
    return in_process("-", text)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: path.stem)
def test_worked_examples_replay_exactly(path: Path) -> None:
    result = in_process(str(path))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert json.loads(result.stdout) == json.loads(path.read_text())["expect"]


def test_a_worked_example_replays_the_same_as_a_process() -> None:
    path = Path(__file__).parent / "scenarios" / "thomas_steals_32.json"
    result = as_process(str(path))
    assert (result.returncode, result.stderr) == (0, "")
    assert json.loads(result.stdout) == json.loads(path.read_text())["expect"]


def test_the_worked_examples_ship() -> None:
    assert {path.stem for path in SCENARIOS} >= {"thomas_steals_32", "bridget_fails"}


def test_every_specialist_has_a_scenario() -> None:
    stems = " ".join(path.stem for path in SCENARIOS)
    for specialist in ("canned_worm", "hen", "weasel", "raven", "golden_die"):
        assert f"extrawurm_{specialist}" in stems


FRESH = {"players": ["anne", "bob"]}
EXTRAWURM = {"players": ["anne", "bob"], "rules": {"extrawurm": True}}
EVERY_TILE = [11, 13, *range(21, 37)]


def extrawurm_start(**start: dict) -> dict:
    """An Extrawurm start with every tile not in `stacks` or `extras` on the grill."""
    held = {t for key in ("stacks", "extras") for ts in start.get(key, {}).values() for t in ts}
    grill = [tile for tile in EVERY_TILE if tile not in held]
    return {**EXTRAWURM, "start": {"grill": grill, **start}}


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
        pytest.param(
            with_turns(
                {"roll": ["W", "W", 1, 2, 2, 3, 4, 5], "keep": "W"},
                {"roll": ["W", "W", "W", "W", "W", "W"]},
                {"claim": "auto"},
            ),
            "error: 0.2: the turn is over: the roll showed no new face, so it has no claim step",
            id="claim-after-a-roll-with-no-new-face",
        ),
        pytest.param(
            with_turns({"roll": [3] * 8, "keep": 3}),
            'error: 0.1: the turn ended by itself: it still needs its claim step ("auto")',
            id="turn-that-failed-by-itself-without-its-claim",
        ),
        pytest.param(
            with_turns({"roll": [3] * 8, "keep": 3}, {"roll": [1], "keep": 1}),
            'error: 0.1: the turn failed by itself: its claim step is "auto"',
            id="roll-after-a-turn-that-failed-by-itself",
        ),
        pytest.param(
            {**FRESH, "start": {"grill": list(range(21, 37)), "extras": {"anne": [11]}}},
            "error: bad start position: start.extras needs the rule extrawurm",
            id="extras-without-the-expansion",
        ),
        pytest.param(
            {**EXTRAWURM, "start": {"grill": [11, *range(21, 37)]}},
            "error: bad start position: tile 13 is neither on the grill nor in a player's extras",
            id="extrawurm-start-lacking-13",
        ),
        pytest.param(
            {**EXTRAWURM, "start": {"grill": [13, *range(21, 37)], "extras": {"anne": [11]}}},
            "error: bad start position: "
            "canned_worm starts on 11, which is not face up on the grill",
            id="specialist-setup-tile-not-face-up",
        ),
        pytest.param(
            extrawurm_start(specialists={"weasel": 12}),
            "error: bad start position: the weasel sits on 12, which is not face up",
            id="specialist-on-a-tile-not-face-up",
        ),
        pytest.param(
            extrawurm_start(specialists={"raven": "anne"}),
            "error: bad start position: the Raven is never held by a player",
            id="raven-held-by-a-player",
        ),
        pytest.param(
            extrawurm_start(bratwurms={"supply": 5, "anne": 1}),
            "error: bad start position: the supply and the players hold 7 Bratwurms in all",
            id="bratwurms-not-seven",
        ),
        pytest.param(
            extrawurm_start(bratwurms={"anne": 5, "bob": 3}),
            "error: bad start position: the supply and the players hold 7 Bratwurms in all",
            id="bratwurms-held-above-seven",
        ),
        pytest.param(
            extrawurm_start(extras={"anne": [11, 13]}, specialists={"canned_worm": None}),
            "error: bad start position: a player holds 11 or 13, never both",
            id="both-extra-tiles-held",
        ),
        pytest.param(
            with_turns(
                {"roll": [1, 1, 2, 2, 3, 3, 4, 4], "weasel": ["W"] * 8, "keep": "W"},
                base=EXTRAWURM,
            ),
            "error: 0.0: anne does not hold the Weasel, so cannot roll again",
            id="weasel-without-the-weasel",
        ),
        pytest.param(
            with_turns(
                {
                    "roll": [1, 1, 2, 2, 3, 3, 4, 4],
                    "weasel": ["W", "W", 1, 2, 3, 4, 5, 5],
                    "keep": "W",
                },
                {"roll": [1, 1, 2, 2, 3, 3], "weasel": [5] * 6, "keep": 5},
                base=extrawurm_start(specialists={"weasel": "anne"}),
            ),
            "error: 0.1: the Weasel rolls again only once a turn",
            id="weasel-twice-in-a-turn",
        ),
        pytest.param(
            with_turns(
                {"roll": ["W", "W", 1, 2, 2, 3, 4, 5], "keep": "W"},
                {"roll": ["W"] * 6, "weasel": ["W"] * 6, "keep": "W"},
                base=extrawurm_start(specialists={"weasel": "anne"}),
            ),
            "error: 0.1: no face in this roll can be kept: it is a failure",
            id="keep-from-a-weasel-roll-with-no-new-face",
        ),
        pytest.param(
            with_turns(
                {"roll": [1, 1, 2, 2, 3, 3, 4, 4], "weasel": ["W"] * 7, "keep": "W"},
                base=extrawurm_start(specialists={"weasel": "anne"}),
            ),
            "error: 0.0: the Weasel rolls the same 8 dice again, not 7",
            id="weasel-with-the-wrong-number-of-dice",
        ),
        pytest.param(
            with_turns({"roll": ["W"] * 9, "keep": "W"}, base=EXTRAWURM),
            "error: 0.0: a roll here has 8 dice, not 9",
            id="nine-dice-without-the-golden-die",
        ),
    ],
)
def test_illegal_scenarios_print_one_error_line_and_exit_2(scenario: dict, line: str) -> None:
    result = run_cli(scenario)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == line + "\n"


def test_malformed_json_is_an_error_without_a_position() -> None:
    result = as_process("-", '{"players": ["anne", ')  # standard input, as a process
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: malformed JSON")
    assert result.stderr.count("\n") == 1


def test_unreadable_file_is_an_error() -> None:
    result = as_process("/nonexistent/scenario.json")
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


def test_a_weasel_roll_with_no_new_face_fails_the_turn() -> None:
    scenario = with_turns(
        {"roll": ["W", "W", 1, 2, 2, 3, 4, 5], "keep": "W"},
        {"roll": ["W"] * 6, "weasel": ["W"] * 6},
        base=extrawurm_start(stacks={"anne": [30]}, specialists={"weasel": "anne"}),
    )
    result = run_cli(scenario)
    assert result.returncode == 0, result.stderr
    position = json.loads(result.stdout)
    assert position["stacks"]["anne"] == [] and position["face_down"] == [36]
    assert position["specialists"]["weasel"] == 13  # back on the lowest free grill tile


def test_an_extrawurm_fresh_start_takes_the_expansion_setup() -> None:
    result = run_cli({**EXTRAWURM, "turns": []})
    assert result.returncode == 0, result.stderr
    position = json.loads(result.stdout)
    assert position["grill"] == EVERY_TILE
    assert position["specialists"] == {
        "canned_worm": 11,
        "hen": 21,
        "weasel": 23,
        "raven": 25,
        "golden_die": 27,
    }
    assert position["bratwurms"] == {"supply": 7, "anne": 0, "bob": 0}
    assert position["extras"] == {"anne": [], "bob": []}
