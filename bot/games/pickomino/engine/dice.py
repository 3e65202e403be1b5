"""Dice: six faces, 1 to 5 and the worm, which counts 5 points."""

from __future__ import annotations

import random
from enum import IntEnum
from typing import Protocol

DICE_COUNT = 8  # dice a turn starts with
MAX_DICE = 9  # Extrawurm: the Golden Die's holder rolls a ninth die


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

    def randrange(self, stop: int, /) -> int: ...


# Rolling draws one number below 6**count and reads its base-6 digits as the dice:
# uniform and independent per die, one call into the random source, no per-die loop.
# A roll is stored sorted, so only how many of each face it shows matters: those
# counts are packed into one int (10**(face - 1) per die; a count never reaches 10)
# and the digits of up to four dice are decoded to that int through a table.
_TABLE_DICE = 4
_FACE_WEIGHT = tuple(10 ** (face - 1) for face in range(1, 7))


def _counts_table(dice: int) -> tuple[int, ...]:
    """The packed face counts of every base-6 number of `dice` digits."""
    table = []
    for number in range(6**dice):
        packed = 0
        for _ in range(dice):
            number, digit = divmod(number, 6)
            packed += _FACE_WEIGHT[digit]
        table.append(packed)
    return tuple(table)


def _sorted_rolls() -> dict[int, tuple[Face, ...]]:
    """Every roll of 0 to 9 dice, sorted, by its packed face counts."""
    rolls: dict[int, tuple[Face, ...]] = {0: ()}
    for _ in range(MAX_DICE):
        for packed, roll in list(rolls.items()):
            for face in ALL_FACES:
                rolls.setdefault(packed + _FACE_WEIGHT[face - 1], tuple(sorted((*roll, face))))
    return rolls


_COUNTS = tuple(_counts_table(dice) for dice in range(_TABLE_DICE + 1))
_TABLE_SIZE = 6**_TABLE_DICE
_ROLL_OF = _sorted_rolls()
_SPAN = tuple(6**dice for dice in range(MAX_DICE + 1))


def roll_dice(rng: RandomSource | random.Random, count: int) -> tuple[Face, ...]:
    """Roll `count` dice with the injected random source, sorted for display."""
    if not 0 <= count <= MAX_DICE:
        raise ValueError(f"a roll has 0 to {MAX_DICE} dice, not {count}")
    number = rng.randrange(_SPAN[count])
    if count <= _TABLE_DICE:
        return _ROLL_OF[_COUNTS[count][number]]
    high, low = divmod(number, _TABLE_SIZE)
    if count <= 2 * _TABLE_DICE:
        return _ROLL_OF[_COUNTS[_TABLE_DICE][low] + _COUNTS[count - _TABLE_DICE][high]]
    high, middle = divmod(high, _TABLE_SIZE)  # nine dice: three parts
    packed = _COUNTS[_TABLE_DICE][low] + _COUNTS[_TABLE_DICE][middle]
    return _ROLL_OF[packed + _COUNTS[count - 2 * _TABLE_DICE][high]]
