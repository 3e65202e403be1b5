"""What can be done: put a roll on the table, or keep one die of it.

Actions are plain data. A roll carries its numbers, rolled beforehand with
`roll_dice(rng, game.dice_count)` (or by `game.roll_with(rng)`), so the engine is
deterministic and a stored game never rolls again.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.picker.engine.colours import Colour


@dataclass(frozen=True, slots=True)
class RollDice:
    """The dice of the round, one number 1-6 per colour in play, in colour order."""

    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pick:
    """The player to move keeps the die of this colour."""

    colour: Colour


Action = RollDice | Pick
