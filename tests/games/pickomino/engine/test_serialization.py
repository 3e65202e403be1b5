"""The stored form of a game: versioned, complete mid-turn, and checked on load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games.pickomino.engine import (
    Face,
    InvalidState,
    Keep,
    LowerTile,
    Phase,
    Roll,
    Rules,
    Specialist,
)
from bot.games.pickomino.engine.serialization import (
    SCHEMA_VERSION,
    UPGRADES,
    game_from_dict,
    game_to_dict,
)
from tests.games.pickomino.engine.helpers import faces, keep_rolls, position

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_game_mid_turn_round_trips_with_its_roll_on_the_table() -> None:
    game = position({"anne": [25], "bob": [30]}, face_down=(36,), current="bob")
    keep_rolls(game, ("WW123455", "W"))
    game.apply(Roll(faces("123345")))
    data = json.loads(json.dumps(game_to_dict(game)))
    assert data["schema"] == SCHEMA_VERSION
    assert data["roll"] == ["1", "2", "3", "3", "4", "5"]
    loaded = game_from_dict(data)
    assert loaded == game
    assert loaded.phase is Phase.KEEP
    # The stored roll is the roll: loading never rolls again.
    loaded.apply(Keep(Face.THREE))
    assert loaded.kept_total == 16


@pytest.mark.parametrize("end", ["leave", "abandon"])
def test_a_game_abandoned_with_dice_on_the_table_still_loads(end: str) -> None:
    # Ended sessions are read back from storage (Play again), so their game must load.
    game = position({"anne": [25], "bob": [30]}, current="bob")
    game.apply(Roll(faces("W1123345")))
    assert game.phase is Phase.KEEP
    if end == "leave":
        game.remove_player("anne")
    else:
        game.abandon()
    assert game.is_over and game.abandoned and game.roll is None
    assert game_from_dict(json.loads(json.dumps(game_to_dict(game)))) == game


def test_a_game_stored_in_schema_1_before_the_expansion_still_loads() -> None:
    # Dumped by the engine at commit 4418906, mid-turn with a roll on the table.
    data = json.loads((FIXTURES / "schema_1_mid_turn.json").read_text())
    assert data["schema"] == 1
    game = game_from_dict(data)
    assert game.rules == Rules(flip_on_empty_failure=True, lower_tile=LowerTile.ANY)
    assert game.expansion is None and game.turn_number == 17
    assert game.stacks == {"anne": [25, 32], "bridget": [30, 23], "thomas": []}
    assert game.phase is Phase.KEEP and game.keepable_faces() == faces("123W")
    assert game_to_dict(game)["schema"] == SCHEMA_VERSION
    game.apply(Keep(Face.WORM))
    assert game.kept_total == 17


def test_a_finished_game_stored_in_schema_1_loads_and_stores_again_unchanged() -> None:
    # Dumped by the engine at commit 4418906 after a whole game of random moves.
    data = json.loads((FIXTURES / "schema_1_game_over.json").read_text())
    game = game_from_dict(data)
    assert game.is_over and game.grill == []
    assert [s.player for s in game.standings() if s.rank == 1] == ["bridget"]
    stored = game_to_dict(game)
    assert stored.pop("extrawurm") is None and stored.pop("schema") == SCHEMA_VERSION
    assert stored.pop("setback") is None  # schema 3 tells the last bust; schema 1 had none
    assert stored.pop("rules") == {**data.pop("rules"), "extrawurm": False}
    data.pop("schema")
    assert stored == data


def test_every_older_schema_has_an_upgrade_to_the_next() -> None:
    assert sorted(UPGRADES) == list(range(1, SCHEMA_VERSION))


def test_an_extrawurm_game_mid_turn_round_trips_with_its_expansion() -> None:
    game = position(
        {"anne": [25], "bob": []},
        rules=Rules(extrawurm=True),
        extras={"bob": [13]},
        specialists={Specialist.RAVEN: 26, Specialist.WEASEL: "anne"},
        bratwurms={"bob": 2},
    )
    keep_rolls(game, ("WW122345", "W"))
    game.apply(Roll(faces("WWWWWW")))  # no new face: the Weasel may still roll again
    data = json.loads(json.dumps(game_to_dict(game)))
    assert data["phase"] == "no_new_face"
    assert data["extrawurm"]["specialists"]["weasel"] == "anne"
    assert data["extrawurm"]["bratwurms"] == {"anne": 0, "bob": 2}
    assert game_from_dict(data) == game


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda d: d["extrawurm"].update(supply=6),
        lambda d: d["extrawurm"]["specialists"].update(raven="anne"),
        lambda d: d["extrawurm"]["specialists"].update(hen=36),
        lambda d: d["extrawurm"]["specialists"].pop("hen"),
        lambda d: d["extrawurm"]["extras"]["anne"].append(11),
        lambda d: d["extrawurm"].update(extras=[]),
        lambda d: d.update(extrawurm=None),
    ],
)
def test_a_corrupt_stored_extrawurm_game_is_refused(corrupt) -> None:
    game = position({"anne": [], "bob": [36]}, rules=Rules(extrawurm=True))
    data = game_to_dict(game)
    corrupt(data)
    with pytest.raises(InvalidState):
        game_from_dict(data)


def test_an_unknown_schema_version_is_refused() -> None:
    data = game_to_dict(position({"anne": [], "bob": []}))
    data["schema"] = SCHEMA_VERSION + 1
    with pytest.raises(InvalidState, match="schema"):
        game_from_dict(data)


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda d: d["grill"].pop(),
        lambda d: d["stacks"]["anne"].append(21),
        lambda d: d.update(current=5),
        lambda d: d.update(roll=["1"]),
        lambda d: d.update(phase="dancing"),
        lambda d: d.pop("kept"),
    ],
)
def test_a_corrupt_stored_game_is_refused(corrupt) -> None:
    data = game_to_dict(position({"anne": [], "bob": []}))
    corrupt(data)
    with pytest.raises(InvalidState):
        game_from_dict(data)
