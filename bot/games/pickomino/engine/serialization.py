"""The whole game, mid-turn included, as JSON-compatible data and back.

Stored games carry a schema version. Loading upgrades an older form step by step
(UPGRADES) to the current one, so every game ever stored still loads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.pickomino.engine.checks import check_position
from bot.games.pickomino.engine.dice import Face
from bot.games.pickomino.engine.errors import InvalidState
from bot.games.pickomino.engine.game import Game
from bot.games.pickomino.engine.phases import Phase
from bot.games.pickomino.engine.rules import Rules
from bot.games.pickomino.engine.setback import Setback
from bot.games.pickomino.engine.specialists import Specialist

# 1: the base game. 2: adds "extrawurm", the expansion's state (null without it).
# 3: adds "setback", the latest bust or steal still to be told (null for none).
SCHEMA_VERSION = 3

__all__ = ["SCHEMA_VERSION", "UPGRADES", "check_position", "game_from_dict", "game_to_dict"]


def upgrade_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 predates the Extrawurm expansion: its games are base games."""
    return {**data, "schema": 2, "extrawurm": None}


def upgrade_2_to_3(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 2 kept no setback: a game stored then has none left to tell."""
    return {**data, "schema": 3, "setback": None}


# UPGRADES[n] turns a schema-n dict into a schema-(n + 1) dict.
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: upgrade_1_to_2,
    2: upgrade_2_to_3,
}


def game_to_dict(game: Game) -> dict[str, Any]:
    """Everything needed to continue the game exactly where it is."""
    return {
        "schema": SCHEMA_VERSION,
        "players": list(game.players),
        "left": list(game.left),
        "rules": game.rules.to_dict(),
        "grill": list(game.grill),
        "face_down": list(game.face_down),
        "stacks": {player: list(stack) for player, stack in game.stacks.items()},
        "current": game.current,
        "phase": str(game.phase),
        "kept": [face.symbol for face in game.kept],
        "roll": None if game.roll is None else [face.symbol for face in game.roll],
        "turn_number": game.turn_number,
        "abandoned": game.abandoned,
        "extrawurm": _expansion_to_dict(game),
        "setback": None if game.setback is None else game.setback.to_dict(),
    }


def _expansion_to_dict(game: Game) -> dict[str, Any] | None:
    expansion = game.expansion
    if expansion is None:
        return None
    return {
        "extras": {player: list(extras) for player, extras in expansion.extras.items()},
        "specialists": {str(name): place for name, place in expansion.specialists.items()},
        "bratwurms": dict(expansion.bratwurms),
        "supply": expansion.supply,
        "weasel_used": expansion.weasel_used,
    }


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """A stored game in the current schema, upgraded step by step from an older one."""
    schema = data.get("schema")
    if type(schema) is not int or not 1 <= schema <= SCHEMA_VERSION:
        raise InvalidState(f"unknown game schema version {schema!r}")
    while schema < SCHEMA_VERSION:
        data = UPGRADES[schema](data)
        schema += 1
    return data


def game_from_dict(data: dict[str, Any]) -> Game:
    """Rebuild a game stored by game_to_dict (any schema version so far), checking it
    is a position the rules allow."""
    try:
        data = upgrade(data)
        roll = data.get("roll")
        rules = Rules.from_dict(data.get("rules"))
        expansion = _stored_expansion(data["extrawurm"], rules)
        return Game.from_position(
            [str(player) for player in data["players"]],
            rules,
            grill=[int(tile) for tile in data["grill"]],
            face_down=[int(tile) for tile in data["face_down"]],
            stacks={str(p): [int(t) for t in stack] for p, stack in data["stacks"].items()},
            current=int(data["current"]),
            phase=Phase(data["phase"]),
            kept=[Face.parse(face) for face in data["kept"]],
            roll=None if roll is None else [Face.parse(face) for face in roll],
            turn_number=int(data.get("turn_number", 1)),
            left=[str(player) for player in data.get("left", [])],
            abandoned=bool(data.get("abandoned", False)),
            extras=expansion.get("extras"),
            specialists=_specialists(expansion.get("specialists")),
            bratwurms=expansion.get("bratwurms"),
            supply=expansion.get("supply"),
            weasel_used=bool(expansion.get("weasel_used", False)),
            setback=None if data["setback"] is None else Setback.from_dict(data["setback"]),
        )
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise InvalidState(f"stored game is malformed: {error}") from None


def _stored_expansion(data: Any, rules: Rules) -> dict[str, Any]:
    """The stored Extrawurm state, complete: a stored game never takes defaults."""
    if data is None:
        if rules.extrawurm:
            raise InvalidState("an Extrawurm game is stored without its expansion state")
        return {}
    if not isinstance(data, dict) or set(data) != EXPANSION_KEYS:
        raise InvalidState(f"the expansion state needs exactly {sorted(EXPANSION_KEYS)}")
    if not all(isinstance(data[key], dict) for key in ("extras", "specialists", "bratwurms")):
        raise InvalidState("extras, specialists and bratwurms are stored as objects")
    if set(data["specialists"]) != {str(name) for name in Specialist}:
        raise InvalidState("every specialist needs a stored place")
    return data


EXPANSION_KEYS = {"extras", "specialists", "bratwurms", "supply", "weasel_used"}


def _specialists(data: Any) -> dict[Specialist, int | str | None] | None:
    if data is None:
        return None
    return {Specialist(name): place for name, place in data.items()}
