"""The Extrawurm expansion's five specialists and the grill tiles they start on."""

from __future__ import annotations

from enum import StrEnum


class Specialist(StrEnum):
    """A specialist: sits on a grill tile, is held by one player, or has left the game."""

    CANNED_WORM = "canned_worm"  # with no worm die kept, a claim counts one worm (5 points)
    HEN = "hen"  # a failure sends the Hen back instead of the top tile
    WEASEL = "weasel"  # once a turn, roll the dice on the table again
    RAVEN = "raven"  # never held: its taker gets a Bratwurm
    GOLDEN_DIE = "golden_die"  # its holder rolls nine dice


# RULES.md "Setup" (the order is the project's choice).
SETUP_TILES: dict[Specialist, int] = {
    Specialist.CANNED_WORM: 11,
    Specialist.HEN: 21,
    Specialist.WEASEL: 23,
    Specialist.RAVEN: 25,
    Specialist.GOLDEN_DIE: 27,
}

# Where a specialist is: a face-up grill tile (int), its holder (str), or out (None).
Place = int | str | None
