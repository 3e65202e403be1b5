from __future__ import annotations

import pytest

from bot.pictures.canvas import is_dark, png_bytes
from bot.pictures.dice import DieColour, coloured_dice_emojis, die_png, draw_die
from tests.pictures.png_checks import assert_emoji_set, count_pixels_near, open_png

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


def test_faces_are_distinct_emoji_sized_pngs() -> None:
    faces = {str(face): die_png(face, WHITE, BLACK) for face in range(1, 7)}
    assert_emoji_set(faces)


def test_same_face_gives_the_same_bytes() -> None:
    assert die_png(4, (10, 120, 200), WHITE) == die_png(4, (10, 120, 200), WHITE)


def test_more_pips_cover_more_of_the_face() -> None:
    covered = [count_pixels_near(draw_die(face, WHITE, BLACK), BLACK, 12) for face in range(1, 7)]
    assert covered == sorted(covered)
    # Each pip is about the same size, so six pips cover about six times one pip.
    assert covered[5] == pytest.approx(6 * covered[0], rel=0.1)


def test_body_colour_fills_the_centre_and_pip_colour_the_one() -> None:
    blank_centre = draw_die(2, (200, 30, 30), WHITE).getpixel((64, 64))
    one_centre = draw_die(1, (200, 30, 30), WHITE).getpixel((64, 64))
    assert blank_centre == (200, 30, 30, 255)
    assert one_centre == (255, 255, 255, 255)


@pytest.mark.parametrize("face", [0, 7, -1])
def test_a_face_outside_one_to_six_is_refused(face: int) -> None:
    with pytest.raises(ValueError, match="1 to 6"):
        draw_die(face, WHITE, BLACK)


def test_coloured_set_has_every_colour_and_face_with_the_prefix() -> None:
    images = coloured_dice_emojis("zz9")
    assert len(images) == len(DieColour) * 6
    assert "zz9_purple_6" in images
    assert all(name.startswith("zz9_") for name in images)
    assert_emoji_set(images)


@pytest.mark.parametrize("colour", list(DieColour))
def test_pips_contrast_with_their_body(colour: DieColour) -> None:
    assert is_dark(colour.body) != is_dark(colour.pips)


def test_png_bytes_round_trip() -> None:
    image = draw_die(3, WHITE, BLACK, size=40)
    assert open_png(png_bytes(image)).tobytes() == image.tobytes()
