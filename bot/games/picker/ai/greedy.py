"""Normal's rule on plain numbers, so Hard's look-ahead can apply it fast and exactly.

Normal keeps the die that scores best right now: its number, plus a hundredth of what
the colour adds to its colour bonus (a tie-break), plus `PICKER_VALUE` when keeping it
makes the player the Picker and another round follows. Working on lists of ints, not
Game objects, keeps Hard's rollouts fast.
"""

from __future__ import annotations

from bot.games.picker.engine.scoring import colour_bonus

# What one more die of a colour kept `k` times adds to the bonus, for k = 0, 1, ...
SET_GAIN: tuple[int, ...] = tuple(colour_bonus(k + 1) - colour_bonus(k) for k in range(32))

SET_WEIGHT = 0.01  # a colour-bonus point is worth a hundredth: sets only break ties
PICKER_VALUE = 1.5  # keeping first next round is worth 1.5: a 1 that makes the Picker
# beats a 2, not a 3


def greedy_choice(
    dice: list[int] | tuple[int, ...],
    available: list[int],
    counts: list[int],
    picker_open: bool,
    lowest: int,
    more_rounds: bool,
) -> int:
    """Normal's die: the index (colour order) to keep from the `available` indexes.

    `counts` are the player's kept dice per colour index; `picker_open` is True while
    nobody has kept the round's `lowest` number yet. Ties go to the earlier colour.
    """
    picker_bonus = PICKER_VALUE if picker_open and more_rounds else 0.0
    best, best_key = available[0], -1.0
    for index in available:
        value = dice[index]
        key = value + SET_WEIGHT * SET_GAIN[counts[index]]
        if value == lowest:
            key += picker_bonus
        if key > best_key:
            best, best_key = index, key
    return best
