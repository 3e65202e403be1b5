"""What a player can do: roll, keep a face, or stop and claim a tile.

Actions are plain data. A roll carries its dice, rolled beforehand with
`roll_dice(rng, game.dice_left)`, so the engine itself is deterministic and a
stored game never rolls again.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.pickomino.engine.claims import ClaimOption
from bot.games.pickomino.engine.dice import Face
from bot.games.pickomino.engine.frozen import quick_init


@quick_init  # built on every action
@dataclass(frozen=True, slots=True)
class Roll:
    dice: tuple[Face, ...]


@quick_init  # built on every action
@dataclass(frozen=True, slots=True)
class Keep:
    face: Face


@quick_init  # built on every action
@dataclass(frozen=True, slots=True)
class Claim:
    option: ClaimOption


Action = Roll | Keep | Claim
