"""Pickomino's emoji set: the dice (faces 1-5 and the worm), the tiles and a turned tile.

Names carry `EMOJI_PREFIX` so a redesign (a new prefix) uploads new emojis instead of
reusing the old ones: `pk1_die_1` .. `pk1_die_5`, `pk1_die_worm`, `pk1_tile_11`,
`pk1_tile_13`, `pk1_tile_21` .. `pk1_tile_36`, `pk1_tile_back`.

This module takes plain ints, not engine types, so it does not depend on the engine.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

from PIL import Image, ImageDraw

from bot.pictures.canvas import (
    EMOJI_SIZE,
    SUPERSAMPLE,
    Rgb,
    finish,
    fitted_text,
    mix,
    new_layer,
    png_bytes,
)
from bot.pictures.dice import die_body_layer, draw_die
from bot.pictures.drawn import Drawn

EMOJI_PREFIX = "pk1"
"""Bump the number when the pictures change, so start-up uploads the new ones."""

DIE_FACES = range(1, 6)
"""The numbered faces; the sixth face is the worm."""
WORM_FACE = "worm"
TILE_VALUES = (11, 13, *range(21, 37))
"""The base game's 21-36 and the Extrawurm expansion's 11 and 13."""
BACK = "back"

DIE_BODY: Rgb = (248, 246, 240)
DIE_PIPS: Rgb = (34, 34, 38)
WORM_RED: Rgb = (196, 48, 40)
TILE_FACE: Rgb = (244, 226, 182)
TILE_INK: Rgb = (30, 26, 22)
TILE_WORM: Rgb = (150, 72, 40)
TILE_BACK: Rgb = (120, 82, 50)


def tile_worms(value: int) -> int:
    """Worms on a tile: 21-24 one, 25-28 two, 29-32 three, 33-36 four; 11 and 13 one."""
    if value not in TILE_VALUES:
        raise ValueError(f"there is no tile {value}")
    return 1 if value < 21 else (value - 21) // 4 + 1


def die_emoji_name(face: int | str) -> str:
    """`pk1_die_3` for a face 1-5, `pk1_die_worm` for the worm."""
    return f"{EMOJI_PREFIX}_die_{face}"


def tile_emoji_name(value: int | str) -> str:
    """`pk1_tile_27` for a tile, `pk1_tile_back` for a turned one."""
    return f"{EMOJI_PREFIX}_tile_{value}"


def pickomino_emojis() -> Drawn:
    """The whole set, name -> PNG, 128 x 128 with a transparent background, each
    picture drawn when first read (Discord mostly holds them all already)."""
    drawers: dict[str, Callable[[], bytes]] = {
        die_emoji_name(face): partial(_png, draw_pip_die, face) for face in DIE_FACES
    }
    drawers[die_emoji_name(WORM_FACE)] = partial(_png, draw_worm_die)
    for value in TILE_VALUES:
        drawers[tile_emoji_name(value)] = partial(_png, draw_tile, value)
    drawers[tile_emoji_name(BACK)] = partial(_png, draw_turned_tile)
    return Drawn(drawers)


def _png(draw: Callable[..., Image.Image], *arguments: int) -> bytes:
    return png_bytes(draw(*arguments))


def draw_pip_die(face: int, size: int = EMOJI_SIZE) -> Image.Image:
    """A white Pickomino die showing 1-5."""
    if face not in DIE_FACES:
        raise ValueError(f"a numbered Pickomino face is 1 to 5, not {face}")
    return draw_die(face, DIE_BODY, DIE_PIPS, size)


def draw_worm_die(size: int = EMOJI_SIZE) -> Image.Image:
    """A white die whose sixth face is a red worm, as on the real dice."""
    layer = die_body_layer(DIE_BODY, size)
    side = size * SUPERSAMPLE
    draw_worm(
        ImageDraw.Draw(layer),
        centre=(side * 0.5, side * 0.52),
        length=side * 0.66,
        thickness=side * 0.15,
        colour=WORM_RED,
    )
    return finish(layer, size, size)


def draw_worm(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    length: float,
    thickness: float,
    colour: Rgb,
    waves: float = 1.5,
) -> None:
    """A wriggling worm lying left to right, head on the right, with an eye.

    The body is a chain of overlapping discs along `waves` sine waves, so the
    ends come out round; a darker rim drawn first keeps it visible on any background.
    """
    cx, cy = centre
    amplitude = thickness * 0.4
    steps = 48
    path = [
        (
            cx - length / 2 + length * i / steps,
            cy + amplitude * math.sin(math.pi * 2 * waves * i / steps),
        )
        for i in range(steps + 1)
    ]
    rim = mix(colour, (0, 0, 0), 0.45)
    radius = thickness / 2
    rim_width = thickness * 0.12
    for fill, grow in ((rim, rim_width), (colour, 0.0)):
        for i, (x, y) in enumerate(path):
            # The tail thins to two thirds; the head is the full thickness.
            r = radius * (0.65 + 0.35 * i / steps) + grow
            draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
    head_x, head_y = path[-1]
    eye = radius * 0.42
    eye_x, eye_y = head_x + radius * 0.05, head_y - radius * 0.25
    draw.ellipse((eye_x - eye, eye_y - eye, eye_x + eye, eye_y + eye), fill=(255, 255, 255))
    pupil = eye * 0.55
    draw.ellipse(
        (eye_x - pupil + eye * 0.25, eye_y - pupil, eye_x + pupil + eye * 0.25, eye_y + pupil),
        fill=(20, 20, 20),
    )


# The tile's shape inside the emoji square, as fractions of the side: a domino standing
# up, a little wider than the real ones so the two digits get room.
_TILE_LEFT, _TILE_RIGHT = 0.12, 0.88
_TILE_TOP, _TILE_BOTTOM = 0.02, 0.98
_TILE_CORNER = 0.1
_TILE_EDGE = 0.035


def _tile_body(fill: Rgb, size: int) -> tuple[Image.Image, tuple[float, float, float, float]]:
    layer = new_layer(size, size)
    side = size * SUPERSAMPLE
    box = (side * _TILE_LEFT, side * _TILE_TOP, side * _TILE_RIGHT, side * _TILE_BOTTOM)
    ImageDraw.Draw(layer).rounded_rectangle(
        box,
        radius=side * _TILE_CORNER,
        fill=fill,
        outline=mix(fill, (0, 0, 0), 0.5),
        width=round(side * _TILE_EDGE),
    )
    return layer, box


def draw_tile(value: int, size: int = EMOJI_SIZE) -> Image.Image:
    """A tile face up: its number on top, its 1-4 worms below, as on the real tiles."""
    worms = tile_worms(value)
    layer, (left, top, right, bottom) = _tile_body(TILE_FACE, size)
    width, height = right - left, bottom - top
    number = fitted_text(
        str(value), round(width * 0.8), round(height * 0.47), TILE_INK, boldness=0.035
    )
    layer.alpha_composite(number, (round(left + width * 0.1), round(top + height * 0.06)))
    # A rule between number and worms, as the printed tiles have.
    draw = ImageDraw.Draw(layer)
    rule_y = top + height * 0.59
    draw.line(
        (left + width * 0.12, rule_y, right - width * 0.12, rule_y),
        fill=mix(TILE_FACE, TILE_INK, 0.45),
        width=round(height * 0.018),
    )
    worm_box = (
        left + width * 0.08,
        top + height * 0.62,
        right - width * 0.08,
        bottom - height * 0.05,
    )
    for centre, length, thickness in _worm_places(worms, worm_box):
        # Short worms wriggle once: more waves would blur into a smear at 22 px.
        draw_worm(draw, centre, length, thickness, TILE_WORM, waves=1.5 if worms == 1 else 1.0)
    return finish(layer, size, size)


def _worm_places(
    count: int, box: tuple[float, float, float, float]
) -> list[tuple[tuple[float, float], float, float]]:
    """Centre, length and thickness of each worm: one alone, else rows of at most two."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    if count == 1:
        return [((left + width / 2, top + height / 2), width * 0.8, height * 0.42)]
    rows = [2] * (count // 2) + [1] * (count % 2)
    row_height = height / len(rows)
    places = []
    for row, in_row in enumerate(rows):
        y = top + row_height * (row + 0.5)
        for column in range(in_row):
            x = left + width * (column + 0.5) / in_row
            places.append(((x, y), width * 0.34, min(row_height * 0.5, width * 0.16)))
    return places


def draw_turned_tile(size: int = EMOJI_SIZE) -> Image.Image:
    """A tile lying face down: the plain back with a pale worm, no number."""
    layer, (left, top, right, bottom) = _tile_body(TILE_BACK, size)
    width, height = right - left, bottom - top
    draw = ImageDraw.Draw(layer)
    inner = width * 0.12
    draw.rounded_rectangle(
        (left + inner, top + inner, right - inner, bottom - inner),
        radius=width * 0.08,
        outline=mix(TILE_BACK, (255, 255, 255), 0.3),
        width=round(width * 0.04),
    )
    draw_worm(
        draw,
        centre=(left + width / 2, top + height / 2),
        length=width * 0.62,
        thickness=width * 0.16,
        colour=mix(TILE_BACK, (255, 255, 255), 0.45),
    )
    return finish(layer, size, size)
