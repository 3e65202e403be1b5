"""The one-die rules on plain numbers: Normal's, and a greedy player's Hard expects.

Normal keeps the die that scores best right now: its number, plus a hundredth of what
the colour adds to its colour bonus (a tie-break), plus `PICKER_VALUE` when keeping it
makes the player the Picker and another round follows. A greedy player counts the
colour bonus in full (`set_weight` 1): Hard's look-ahead models its opponents as a mix
of the two. Working on lists of ints, not Game objects, keeps the look-ahead fast.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.picker.engine.scoring import colour_bonus

# What one more die of a colour kept `k` times adds to the bonus, for k = 0, 1, ...
SET_GAIN: tuple[int, ...] = tuple(colour_bonus(k + 1) - colour_bonus(k) for k in range(32))

SET_WEIGHT = 0.01  # Normal: a colour-bonus point is worth a hundredth: sets only break ties
GREEDY_SET_WEIGHT = 1.0  # a greedy player: a colour-bonus point is a point
PICKER_VALUE = 1.5  # keeping first next round is worth 1.5: a 1 that makes the Picker
# beats a 2, not a 3


def greedy_choice(
    dice: Sequence[int],
    available: list[int],
    counts: list[int],
    picker_open: bool,
    lowest: int,
    more_rounds: bool,
    set_weight: float = SET_WEIGHT,
) -> int:
    """Normal's die (or with `set_weight` another greedy rule's): the index (colour
    order) to keep from the `available` indexes.

    `counts` are the player's kept dice per colour index; `picker_open` is True while
    nobody has kept the round's `lowest` number yet. Equal worths go to the higher
    number, then to the earlier colour.
    """
    picker_bonus = PICKER_VALUE if picker_open and more_rounds else 0.0
    best, best_key, best_value = available[0], -1.0, 0
    for index in available:
        value = dice[index]
        key = value + set_weight * SET_GAIN[counts[index]]
        if value == lowest:
            key += picker_bonus
        if key > best_key or (key == best_key and value > best_value):
            best, best_key, best_value = index, key, value
    return best
