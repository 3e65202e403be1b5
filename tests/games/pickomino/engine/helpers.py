"""Build engine positions for tests without playing up to them."""

from __future__ import annotations

from typing import Any

from bot.games.pickomino.engine import Face, Game, Keep, Roll, Rules


def position(
    stacks: dict[str, list[int]],
    *,
    face_down: tuple[int, ...] = (),
    current: str | None = None,
    rules: Rules | None = None,
    **extrawurm: Any,
) -> Game:
    """A game whose grill holds every tile not in a stack, face down or beside a stack
    (`extras=`); further keywords go to Game.from_position (specialists, bratwurms...)."""
    rules = rules or Rules()
    extras = extrawurm.get("extras") or {}
    held = {tile for stack in (*stacks.values(), *extras.values()) for tile in stack}
    return Game.from_position(
        list(stacks),
        rules,
        grill=[tile for tile in rules.layout.all_tiles if tile not in held | set(face_down)],
        face_down=face_down,
        stacks=stacks,
        current=current or 0,
        **extrawurm,
    )


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
