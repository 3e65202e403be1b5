"""The colour bonus and the final order (RULES.md, Picker)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from bot.games.picker.engine.colours import COLOUR_INDEX, Colour

BONUS_PER_REPEAT = 3  # each keep of a colour after its first adds 3...
MAX_COLOUR_BONUS = 15  # ...up to 15 for one colour (kept 6 times or more)


def colour_bonus(times: int) -> int:
    """The bonus of one colour kept `times` times: 3 x (times - 1), at most 15."""
    if times < 2:
        return 0
    return min(BONUS_PER_REPEAT * (times - 1), MAX_COLOUR_BONUS)


@dataclass(frozen=True, slots=True)
class ColourSet:
    """One colour a player kept twice or more, and the bonus it gives."""

    colour: Colour
    count: int
    bonus: int


def colour_sets(colours: Iterable[Colour]) -> tuple[ColourSet, ...]:
    """The bonus of each colour kept twice or more, in colour order."""
    counts = Counter(colours)
    return tuple(
        ColourSet(colour, count, colour_bonus(count))
        for colour, count in sorted(counts.items(), key=lambda item: COLOUR_INDEX[item[0]])
        if count >= 2
    )


def total_bonus(colours: Iterable[Colour]) -> int:
    """The colour bonus of everything a player kept."""
    return sum(colour_bonus(count) for count in Counter(colours).values())
