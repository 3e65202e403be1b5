"""What a player can do: roll, keep a face, or stop and claim a tile; with the
Extrawurm expansion also roll again with the Weasel, or take a failed roll as it is.

Actions are plain data. A roll carries its dice, rolled beforehand with
`roll_dice(rng, game.dice_left)` (a Weasel re-roll likewise), so the engine itself is
deterministic and a stored game never rolls again.
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


@dataclass(frozen=True, slots=True)
class Weasel:
    """Extrawurm: the Weasel's holder rolls the dice on the table again, once a turn."""

    dice: tuple[Face, ...]  # as many dice as the roll it replaces


@dataclass(frozen=True, slots=True)
class AcceptFailure:
    """Extrawurm: take a roll with no new face as it is (the Weasel unused): a failure."""


Action = Roll | Keep | Claim | Weasel | AcceptFailure
