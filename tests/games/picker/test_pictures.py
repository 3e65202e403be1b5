from __future__ import annotations

from bot.games.picker.pictures import die_emoji_name, picker_emojis
from bot.pictures.dice import DieColour
from tests.pictures.png_checks import assert_emoji_set


def test_one_emoji_per_colour_and_face() -> None:
    images = picker_emojis()
    assert set(images) == {
        die_emoji_name(colour.name, face) for colour in DieColour for face in range(1, 7)
    }
    assert_emoji_set(images)


def test_names_are_versioned_and_lower_case() -> None:
    assert die_emoji_name("BLUE", 4) == "pc1_blue_4"
