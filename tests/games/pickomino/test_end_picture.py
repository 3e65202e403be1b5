from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.games.pickomino.end_picture import (
    BACKGROUND,
    MIN_LABEL,
    PHONE_WIDTH,
    PLAYER_COLOURS,
    TEXT,
    WIDTH,
    PlayerFinal,
    draw_end_picture,
)
from bot.games.pickomino.plugin import PICKOMINO
from bot.pictures.names import name_fonts
from tests.pictures.png_checks import count_pixels_near, open_png


def player(name: str, score: int, turns: int = 30) -> PlayerFinal:
    # The score climbs to its final value over the turns.
    return PlayerFinal(name, tuple(score * (turn + 1) // turns for turn in range(turns)))


def rgb(data: bytes) -> Image.Image:
    return open_png(data).convert("RGB")


def colour_share(image: Image.Image, colour: tuple[int, int, int]) -> int:
    return count_pixels_near(image, colour, 20)


def text_columns(image: Image.Image, top: int, bottom: int) -> list[int]:
    """The x of every column holding text-coloured pixels between `top` and `bottom`."""
    band = image.crop((0, top, image.width, bottom))
    return [
        x
        for x in range(band.width)
        if any(
            all(abs(a - b) <= 40 for a, b in zip(band.getpixel((x, y)), TEXT, strict=True))
            for y in range(band.height)
        )
    ]


GAME = [player("Anne", 12), player("Bob", 7), player("Cleo", 0)]


def test_a_png_of_the_width_and_small() -> None:
    data = draw_end_picture(GAME)
    image = open_png(data)
    assert image.width == WIDTH
    assert len(data) < 200 * 1024


def test_a_full_table_s_long_game_is_a_small_upload() -> None:
    # Sent with every game's end screen, often to a phone on mobile data: seven players
    # over 90 turns, names in three scripts, fit in 16 kB (a median-cut palette and
    # Lanczos edges took 26 kB).
    names = ["Zoë Ångström", "Łukasz", "Müller-Lüdenscheidt", "Đorđe", "Ana", "Ειρήνη", "Юлия"]
    players = [player(name, 40 - 5 * index, turns=90) for index, name in enumerate(names)]
    assert len(draw_end_picture(players)) < 16 * 1024


def test_labels_are_at_least_11_px_on_a_390_px_phone() -> None:
    assert MIN_LABEL * PHONE_WIDTH / WIDTH >= 11


def test_the_same_game_gives_the_same_bytes() -> None:
    assert draw_end_picture(GAME) == draw_end_picture(GAME)


def test_the_picture_is_a_chart_not_a_second_list_of_standings() -> None:
    """Three players' names fit one legend line: the picture is no taller for more of
    them (it lists no rows of tiles), only the legend wraps when it must."""
    two = open_png(draw_end_picture(GAME[:2])).height
    three = open_png(draw_end_picture(GAME)).height
    seven = open_png(draw_end_picture([player(f"Player {i}", i) for i in range(7)])).height
    assert two == three < seven
    assert three < 0.8 * WIDTH  # at 281 px wide on a phone: about 200 px tall


def test_each_player_has_their_colour_in_legend_and_chart() -> None:
    image = rgb(draw_end_picture(GAME))
    for colour in PLAYER_COLOURS[: len(GAME)]:
        assert colour_share(image, colour) > 200
    assert colour_share(image, PLAYER_COLOURS[len(GAME)]) == 0


def test_a_long_name_is_drawn_whole_where_it_fits() -> None:
    """A name as long as Discord allows (32 characters) is not cut: its legend entry is
    wider than the same name cut to 20 characters."""
    long = "Bartholomew the Magnificent Jr.!"  # 32 characters
    whole = rgb(draw_end_picture([player(long, 3)]))
    cut = rgb(draw_end_picture([player(long[:20], 3)]))
    band = (0, 24)  # the legend's first line
    assert max(text_columns(whole, *band)) > max(text_columns(cut, *band)) + 60


@pytest.mark.parametrize(
    "name",
    [
        "名前テスト",
        "Zoë 😀🎲",
        "Ольга",
        "\u202eevil\u200d",
        "",
        "W" * 200,
        "👨‍👩‍👧‍👦",
        "مرحبا بالعالم",
    ],
)
def test_any_name_draws_inside_the_picture(name: str) -> None:
    image = rgb(draw_end_picture([player(name, 3), player("Bob", 1)]))
    assert image.width == WIDTH
    # The right margin stays background: a name too wide is cut, not run off.
    right_edge = image.crop((WIDTH - 10, 0, WIDTH, 50))
    assert colour_share(right_edge, BACKGROUND) == right_edge.width * right_edge.height


@pytest.mark.parametrize(("name", "stand_in"), [("Zoë", "Zoe"), ("Łukasz", "Lukasz")])
def test_accented_names_are_drawn_with_their_accents(name: str, stand_in: str) -> None:
    accented = draw_end_picture([player(name, 3), player("Bob", 1)])
    plain = draw_end_picture([player(stand_in, 3), player("Bob", 1)])
    assert rgb(accented).tobytes() != rgb(plain).tobytes()


def test_a_game_without_turns_still_draws() -> None:
    players = [PlayerFinal("A"), PlayerFinal("B")]
    assert open_png(draw_end_picture(players)).width == WIDTH


@pytest.mark.parametrize("count", [0, 8])
def test_player_count_outside_one_to_seven_is_refused(count: int) -> None:
    with pytest.raises(ValueError, match="1 to 7"):
        draw_end_picture([player(f"P{i}", 0) for i in range(count)])


@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(max_size=40),
            st.lists(st.integers(min_value=0, max_value=60), max_size=120),
        ),
        min_size=1,
        max_size=7,
    )
)
def test_any_game_draws_a_valid_picture(rows: list[tuple[str, list[int]]]) -> None:
    players = [PlayerFinal(name, tuple(series)) for name, series in rows]
    image = Image.open(io.BytesIO(draw_end_picture(players)))
    assert image.width == WIDTH


def test_the_plugins_warm_up_loads_what_the_first_game_end_would() -> None:
    # Start-up draws one picture, so that the click ending a process's first game does
    # not load the fonts (nor, in a soak, count them as memory grown after the warm-up).
    name_fonts.cache_clear()
    PICKOMINO.warm_up(None)  # type: ignore[misc]  # set, as GamePlugin allows None
    loaded = name_fonts.cache_info().currsize
    assert loaded > 0
    draw_end_picture([player("Ada", 12), player("Zoë", 9), player("Bo", 3)])
    assert name_fonts.cache_info().currsize == loaded
