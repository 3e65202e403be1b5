"""Picker's emoji set: one die per player colour, faces 1-6."""

from __future__ import annotations

from bot.pictures.dice import coloured_dice_emojis

EMOJI_PREFIX = "pc1"
"""Bump the number when the pictures change, so start-up uploads the new ones."""


def picker_emojis() -> dict[str, bytes]:
    """Every coloured die face, named `pc1_<colour>_<face>` (e.g. `pc1_blue_4`)."""
    return coloured_dice_emojis(EMOJI_PREFIX)


def die_emoji_name(colour: str, face: int) -> str:
    """The emoji name of a die of `colour` (a `DieColour` name, any case) showing `face`."""
    return f"{EMOJI_PREFIX}_{colour.lower()}_{face}"
