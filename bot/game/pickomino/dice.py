"""Dice: six faces, 1 to 5 and the worm, which counts 5 points."""

from __future__ import annotations

import random
from enum import IntEnum
from typing import Protocol

DICE_COUNT = 8


class Face(IntEnum):
    """A die face. The worm is stored as 6 so that faces sort and hash as ints."""

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    WORM = 6

    @property
    def points(self) -> int:
        """What the face adds to the sum: its number, or 5 for the worm."""
        return 5 if self is Face.WORM else int(self)

    @property
    def symbol(self) -> str:
        """The face as written in scenario files and logs: "1" to "5" or "W"."""
        return "W" if self is Face.WORM else str(int(self))

    @classmethod
    def parse(cls, value: object) -> Face:
        """Read a face from a scenario or stored state: 1-5, "1"-"5", "W" or 6."""
        if isinstance(value, str):
            text = value.strip().upper()
            if text in ("W", "WORM"):
                return cls.WORM
            if text.isdigit():
                value = int(text)
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6:
            return cls(value)
        raise ValueError(f"{value!r} is not a die face (1 to 5 or W)")


ALL_FACES: tuple[Face, ...] = tuple(Face)
# Every accepted spelling of a face, so checking a whole roll is one C-level map.
FACE_OF: dict[object, Face] = {
    **{face: face for face in ALL_FACES},
    **{face.symbol: face for face in ALL_FACES},
    "w": Face.WORM,
}
# The points of face value i, indexed by int(face), so hot loops avoid the property call.
POINTS: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 5)


class RandomSource(Protocol):
    """The part of random.Random the engine needs; secrets.SystemRandom fits too."""

    def choices(self, population: tuple[Face, ...], *, k: int) -> list[Face]: ...


def roll_dice(rng: RandomSource | random.Random, count: int) -> tuple[Face, ...]:
    """Roll `count` dice with the injected random source, sorted for display."""
    return tuple(sorted(rng.choices(ALL_FACES, k=count)))
