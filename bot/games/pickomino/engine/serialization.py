"""The whole game, mid-turn included, as JSON-compatible data and back."""

from __future__ import annotations

from typing import Any

from bot.games.pickomino.engine.dice import Face
from bot.games.pickomino.engine.errors import InvalidState
from bot.games.pickomino.engine.game import Game, Phase, _check_players
from bot.games.pickomino.engine.rules import Rules
from bot.games.pickomino.engine.tiles import ALL_TILES

SCHEMA_VERSION = 1


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
    }


def game_from_dict(data: dict[str, Any]) -> Game:
    """Rebuild a game stored by game_to_dict, checking it is a position the rules allow."""
    try:
        schema = data["schema"]
        if schema != SCHEMA_VERSION:
            raise InvalidState(f"unknown game schema version {schema!r}")
        game = Game.__new__(Game)
        game.players = [str(player) for player in data["players"]]
        game.left = [str(player) for player in data.get("left", [])]
        game.rules = Rules.from_dict(data.get("rules"))
        game.grill = sorted(int(tile) for tile in data["grill"])
        game.face_down = sorted(int(tile) for tile in data["face_down"])
        game.stacks = {str(p): [int(t) for t in stack] for p, stack in data["stacks"].items()}
        game.current = int(data["current"])
        game.phase = Phase(data["phase"])
        game.kept = [Face.parse(face) for face in data["kept"]]
        roll = data.get("roll")
        game.roll = None if roll is None else tuple(Face.parse(face) for face in roll)
        game.turn_number = int(data.get("turn_number", 1))
        game.abandoned = bool(data.get("abandoned", False))
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidState(f"stored game is malformed: {error}") from None
    check_position(game)
    return game


def check_position(game: Game) -> None:
    """Raise InvalidState unless every tile is in one place and the seats make sense."""
    if not game.abandoned:
        _check_players(game.players)
    if set(game.stacks) != set(game.players):
        raise InvalidState("every seated player needs a stack, and only they")
    placed = [*game.grill, *game.face_down, *(t for s in game.stacks.values() for t in s)]
    if sorted(placed) != list(ALL_TILES):
        raise InvalidState("every tile 21 to 36 must be in exactly one place")
    if not 0 <= game.current < max(len(game.players), 1):
        raise InvalidState("the player to move is not seated")
    if len(game.kept) > 8 or (game.roll is not None and len(game.roll) + len(game.kept) != 8):
        raise InvalidState("the turn's dice do not add up to 8")
    if (game.phase is Phase.KEEP) != (game.roll is not None):
        raise InvalidState("a roll is on the table exactly while a face must be kept")
