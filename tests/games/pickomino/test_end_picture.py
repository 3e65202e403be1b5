from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.games.pickomino.end_picture import (
    BACKGROUND,
    PLAYER_COLOURS,
    WIDTH,
    PlayerFinal,
    draw_end_picture,
)
from bot.games.pickomino.pictures import TILE_VALUES, tile_worms
from tests.pictures.png_checks import count_pixels_near, open_png


def player(name: str, stack: tuple[int, ...], winner: bool = False, turns: int = 30) -> PlayerFinal:
    score = sum(tile_worms(value) for value in stack)
    # Worms climb to the final score over the turns.
    series = tuple(score * (turn + 1) // turns for turn in range(turns))
    return PlayerFinal(name, stack, score, winner, series)


def rgb(data: bytes) -> Image.Image:
    return open_png(data).convert("RGB")


def colour_share(image: Image.Image, colour: tuple[int, int, int]) -> int:
    return count_pixels_near(image, colour, 20)


GAME = [
    player("Anne", (21, 25, 36, 30), winner=True),
    player("Bob", (22, 33)),
    player("Cleo", ()),
]


def test_a_png_of_the_width_and_small() -> None:
    data = draw_end_picture(GAME)
    image = open_png(data)
    assert image.width == WIDTH
    assert len(data) < 200 * 1024


def test_the_same_game_gives_the_same_bytes() -> None:
    assert draw_end_picture(GAME) == draw_end_picture(GAME)


def test_height_grows_with_the_players() -> None:
    heights = [
        open_png(draw_end_picture([player(f"P{i}", (21 + i,)) for i in range(count)])).height
        for count in range(2, 8)
    ]
    assert heights == sorted(heights)
    assert len(set(heights)) == len(heights)


def test_each_player_has_their_colour_in_legend_and_chart() -> None:
    image = rgb(draw_end_picture(GAME))
    for colour in PLAYER_COLOURS[: len(GAME)]:
        assert colour_share(image, colour) > 200
    assert colour_share(image, PLAYER_COLOURS[len(GAME)]) == 0


def test_tiles_are_drawn_only_for_tiles_held() -> None:
    tile_cream = (244, 226, 182)
    empty = rgb(draw_end_picture([player("A", ()), player("B", ())]))
    held = rgb(draw_end_picture([player("A", (21,)), player("B", ())]))
    more = rgb(draw_end_picture([player("A", (21, 22, 23)), player("B", ())]))
    assert colour_share(empty, tile_cream) == 0
    assert 0 < colour_share(held, tile_cream) < colour_share(more, tile_cream)


def test_the_winner_row_is_outlined() -> None:
    plain = rgb(draw_end_picture([player("A", (21,)), player("B", ())]))
    marked = rgb(draw_end_picture([player("A", (21,), winner=True), player("B", ())]))
    gold = (250, 200, 40)
    assert colour_share(plain, gold) == 0
    assert colour_share(marked, gold) > 50


@pytest.mark.parametrize(
    "name",
    ["名前テスト", "Zoë 😀🎲", "Ольга", "\u202eevil\u200d", "", "W" * 200, "👨‍👩‍👧‍👦"],
)
def test_any_name_draws(name: str) -> None:
    image = open_png(draw_end_picture([player(name, (21,)), player("Bob", ())]))
    assert image.width == WIDTH


@pytest.mark.parametrize(("name", "stand_in"), [("Zoë", "Zoe"), ("Łukasz", "Lukasz")])
def test_accented_names_are_drawn_with_their_accents(name: str, stand_in: str) -> None:
    accented = draw_end_picture([player(name, (21,)), player("Bob", ())])
    plain = draw_end_picture([player(stand_in, (21,)), player("Bob", ())])
    assert rgb(accented).tobytes() != rgb(plain).tobytes()


def test_a_long_stack_stays_inside_the_picture() -> None:
    every_tile = tuple(TILE_VALUES)
    image = rgb(draw_end_picture([player("A", every_tile), player("B", ())]))
    # The right margin stays background: the tiles overlap instead of running off.
    right_edge = image.crop((WIDTH - 10, 0, WIDTH, 60))
    assert colour_share(right_edge, BACKGROUND) == right_edge.width * right_edge.height


def test_a_game_without_turns_still_draws() -> None:
    players = [PlayerFinal("A", (), 0), PlayerFinal("B", (), 0)]
    assert open_png(draw_end_picture(players)).width == WIDTH


@pytest.mark.parametrize("count", [0, 8])
def test_player_count_outside_one_to_seven_is_refused(count: int) -> None:
    with pytest.raises(ValueError, match="1 to 7"):
        draw_end_picture([player(f"P{i}", ()) for i in range(count)])


@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(max_size=40),
            st.lists(st.sampled_from(TILE_VALUES), max_size=18, unique=True),
            st.lists(st.integers(min_value=0, max_value=60), max_size=120),
        ),
        min_size=1,
        max_size=7,
    )
)
def test_any_game_draws_a_valid_picture(
    rows: list[tuple[str, list[int], list[int]]],
) -> None:
    players = [
        PlayerFinal(name, tuple(stack), sum(map(tile_worms, stack)), index == 0, tuple(series))
        for index, (name, stack, series) in enumerate(rows)
    ]
    image = Image.open(io.BytesIO(draw_end_picture(players)))
    assert image.width == WIDTH
