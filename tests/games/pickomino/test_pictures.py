from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from bot.games.pickomino.pictures import (
    BACK,
    TILE_VALUES,
    WORM_FACE,
    WORM_RED,
    die_emoji_name,
    draw_tile,
    draw_worm_die,
    pickomino_emojis,
    tile_emoji_name,
    tile_worms,
)
from bot.pictures.emojis import EmojiBook
from tests.pictures.png_checks import assert_emoji_set, count_pixels_near


def test_the_set_holds_six_faces_eighteen_tiles_and_a_back() -> None:
    images = pickomino_emojis()
    expected = {die_emoji_name(face) for face in (1, 2, 3, 4, 5, WORM_FACE)}
    expected |= {tile_emoji_name(value) for value in (11, 13, *range(21, 37), BACK)}
    assert set(images) == expected
    assert len(images) == 25


def test_every_picture_is_a_distinct_emoji_sized_png() -> None:
    assert_emoji_set(pickomino_emojis())


def test_the_set_is_the_same_bytes_every_time() -> None:
    assert pickomino_emojis() == pickomino_emojis()


def test_every_name_is_a_valid_emoji_name() -> None:
    EmojiBook(pickomino_emojis())  # refuses any name Discord would refuse


def test_the_worm_face_is_mostly_worm_red_and_the_pips_are_not() -> None:
    images = pickomino_emojis()
    worm = count_pixels_near(draw_worm_die(), WORM_RED, 30)
    assert worm > 128 * 128 // 20
    assert count_pixels_near(Image.open(io.BytesIO(images["pk1_die_5"])), WORM_RED, 30) == 0


@pytest.mark.parametrize(
    ("value", "worms"),
    [(11, 1), (13, 1), (21, 1), (24, 1), (25, 2), (28, 2), (29, 3), (32, 3), (33, 4), (36, 4)],
)
def test_worms_per_tile_follow_the_rules(value: int, worms: int) -> None:
    assert tile_worms(value) == worms


def test_all_tiles_carry_forty_worms_in_the_base_game() -> None:
    assert sum(tile_worms(value) for value in range(21, 37)) == 40


@pytest.mark.parametrize("value", [0, 12, 20, 37])
def test_there_is_no_such_tile(value: int) -> None:
    with pytest.raises(ValueError, match=str(value)):
        tile_worms(value)


def count_blobs(image: Image.Image, is_ink: Callable[[tuple[int, ...]], bool]) -> int:
    """Connected groups (4-neighbour) of pixels for which `is_ink` holds."""
    width, height = image.size
    pixels = image.load()
    assert pixels is not None
    ink = {(x, y) for x in range(width) for y in range(height) if is_ink(pixels[x, y])}
    blobs = 0
    while ink:
        blobs += 1
        todo = [ink.pop()]
        while todo:
            x, y = todo.pop()
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if near in ink:
                    ink.remove(near)
                    todo.append(near)
    return blobs


def worm_brown(pixel: tuple[int, ...]) -> bool:
    r, g, b, a = pixel
    # Red well above blue, unlike the cream face (b 182) and the dark ink.
    return a > 200 and r - b > 70 and g < 130


@pytest.mark.parametrize("value", [11, 13, *range(21, 37)])
def test_a_tile_shows_as_many_worms_as_it_carries(value: int) -> None:
    # The worms sit below the number, in the lower part of the tile.
    worm_area = draw_tile(value).crop((0, 76, 128, 128))
    assert count_blobs(worm_area, worm_brown) == tile_worms(value)


def test_tile_values_cover_base_game_and_expansion() -> None:
    assert set(TILE_VALUES) == {11, 13, *range(21, 37)}
