"""Build engine positions for tests without playing up to them."""

from __future__ import annotations

from bot.games.pickomino.engine import ALL_TILES, Face, Game, Keep, Roll, Rules
from bot.games.pickomino.engine.serialization import check_position


def position(
    stacks: dict[str, list[int]],
    *,
    face_down: tuple[int, ...] = (),
    current: str | None = None,
    rules: Rules | None = None,
) -> Game:
    """A game whose grill holds every tile not in a stack or face down."""
    players = list(stacks)
    game = Game(players, rules)
    held = {tile for stack in stacks.values() for tile in stack} | set(face_down)
    game.grill = [tile for tile in ALL_TILES if tile not in held]
    game.face_down = sorted(face_down)
    game.stacks = {player: list(stack) for player, stack in stacks.items()}
    game.current = players.index(current) if current else 0
    check_position(game)
    return game


def faces(text: str) -> tuple[Face, ...]:
    """'44W1' -> (4, 4, WORM, 1): rolls written the way the rulebook reads them."""
    return tuple(Face.parse(char) for char in text)


def keep_rolls(game: Game, *rolls: tuple[str, str]) -> list:
    """Play (roll, face kept) pairs for the player to move; return all events."""
    events = []
    for dice, keep in rolls:
        events += game.apply(Roll(faces(dice)))
        events += game.apply(Keep(Face.parse(keep)))
    return events
