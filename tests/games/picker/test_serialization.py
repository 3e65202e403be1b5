"""The stored form: a schema version, and only positions the rules allow are loaded."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from bot.games.picker.engine import (
    SCHEMA_VERSION,
    Colour,
    Game,
    InvalidState,
    Pick,
    RollDice,
    game_from_dict,
    game_to_dict,
)
from tests.games.picker.helpers import seats


def mid_round() -> Game:
    game = Game(seats(3), first=1, computer=["cara"])
    game.apply(RollDice((2, 5, 2)))
    game.apply(Pick(Colour.YELLOW))
    return game


def test_the_stored_form_is_json_with_a_schema_version() -> None:
    stored = game_to_dict(mid_round())
    assert stored["schema"] == SCHEMA_VERSION
    assert stored["kept"]["bob"] == [["yellow", 2]]
    assert stored["picker"] == 1
    assert game_from_dict(json.loads(json.dumps(stored))) == mid_round()


def broken(change: str) -> dict[str, Any]:
    stored = copy.deepcopy(game_to_dict(mid_round()))
    if change == "schema":
        stored["schema"] = SCHEMA_VERSION + 1
    elif change == "missing":
        del stored["dice"]
    elif change == "all_equal":
        stored["dice"] = [3, 3, 3]
    elif change == "kept_twice":
        stored["picks"] = ["yellow", "yellow"]
    elif change == "picks_disagree":
        stored["kept"]["bob"] = [["red", 2]]
    elif change == "wrong_picker":
        stored["picker"] = 0
    elif change == "colour":
        stored["picks"] = ["pink"]
    elif change == "left_not_computer":
        stored["left"] = ["anne"]
    elif change == "round":
        stored["round"] = 7
    return stored


@pytest.mark.parametrize(
    "change",
    [
        "schema",
        "missing",
        "all_equal",
        "kept_twice",
        "picks_disagree",
        "wrong_picker",
        "colour",
        "left_not_computer",
        "round",
    ],
)
def test_a_broken_stored_game_is_refused(change: str) -> None:
    with pytest.raises(InvalidState):
        game_from_dict(broken(change))
