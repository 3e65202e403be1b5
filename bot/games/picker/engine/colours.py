"""The dice colours: one die per player, always taken in this order."""

from __future__ import annotations

from enum import StrEnum


class Colour(StrEnum):
    """A die's colour; a colour names the same die in every round."""

    RED = "red"
    ORANGE = "orange"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    PURPLE = "purple"
    WHITE = "white"
    BLACK = "black"


# The fixed order: a game of N players rolls the first N colours.
COLOURS: tuple[Colour, ...] = tuple(Colour)
# A colour's place in that order, which is also its die's index in a roll. A StrEnum
# hashes as its text, so "red" finds Colour.RED here too.
COLOUR_INDEX: dict[str, int] = {colour: index for index, colour in enumerate(COLOURS)}


def colours_in_play(players: int) -> tuple[Colour, ...]:
    """The colours of a game of `players` players, in roll order."""
    return COLOURS[:players]
