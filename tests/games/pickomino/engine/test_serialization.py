"""The stored form of a game: versioned, complete mid-turn, and checked on load."""

from __future__ import annotations

import json

import pytest

from bot.games.pickomino.engine import Face, InvalidState, Keep, Phase, Roll
from bot.games.pickomino.engine.serialization import SCHEMA_VERSION, game_from_dict, game_to_dict
from tests.games.pickomino.engine.helpers import faces, keep_rolls, position


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
