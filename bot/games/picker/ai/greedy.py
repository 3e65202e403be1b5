"""One-pick greedy choices on plain numbers: Normal's rule, and the rollouts' for Hard.

A greedy player keeps the die that scores best right now: its number, plus what the
colour adds to the player's colour bonus (times `set_weight`), plus `picker_value` when
keeping it makes the player the Picker and another round follows. Normal weighs the
colour bonus as a tie-break only; Hard's rollouts weigh it in full. Working on lists of
ints, not Game objects, keeps Hard's look-ahead fast.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.picker.engine.scoring import colour_bonus

# What one more die of a colour kept `k` times adds to the bonus, for k = 0, 1, ...
SET_GAIN: tuple[int, ...] = tuple(colour_bonus(k + 1) - colour_bonus(k) for k in range(32))


@dataclass(frozen=True, slots=True)
class Weights:
    set_weight: float  # points a colour-bonus point is worth to this player
    picker_value: float  # points becoming the Picker is worth (only if a round follows)


NORMAL = Weights(set_weight=0.01, picker_value=1.5)  # highest number; sets break ties


def greedy_choice(
    dice: list[int] | tuple[int, ...],
    available: list[int],
    counts: list[int],
    picker_open: bool,
    lowest: int,
    more_rounds: bool,
    weights: Weights,
) -> int:
    """The index (colour order) of the die to keep from `available` indexes.

    `counts` are the player's kept dice per colour index; `picker_open` is True while
    nobody has kept the round's `lowest` number yet. Ties go to the earlier colour.
    """
    set_weight = weights.set_weight
    picker_bonus = weights.picker_value if picker_open and more_rounds else 0.0
    best, best_key = available[0], -1.0
    for index in available:
        value = dice[index]
        key = value + set_weight * SET_GAIN[counts[index]]
        if value == lowest:
            key += picker_bonus
        if key > best_key:
            best, best_key = index, key
    return best
