"""Die faces as emoji-sized pictures: a rounded square with pips, in any colours."""

from __future__ import annotations

from enum import Enum

from PIL import Image, ImageDraw

from bot.pictures.canvas import (
    EMOJI_SIZE,
    SUPERSAMPLE,
    Rgb,
    finish,
    is_dark,
    mix,
    new_layer,
    png_bytes,
)

FACES = range(1, 7)

# Pip centres on a 3x3 grid, as fractions of the die's side. The outer rows sit a bit
# further in than on a real die so the pips stay clear of the rounded corners.
_NEAR, _MIDDLE, _FAR = 0.28, 0.5, 0.72
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_MIDDLE, _MIDDLE),),
    2: ((_FAR, _NEAR), (_NEAR, _FAR)),
    3: ((_FAR, _NEAR), (_MIDDLE, _MIDDLE), (_NEAR, _FAR)),
    4: ((_NEAR, _NEAR), (_FAR, _NEAR), (_NEAR, _FAR), (_FAR, _FAR)),
    5: ((_NEAR, _NEAR), (_FAR, _NEAR), (_MIDDLE, _MIDDLE), (_NEAR, _FAR), (_FAR, _FAR)),
    6: (
        (_NEAR, _NEAR),
        (_FAR, _NEAR),
        (_NEAR, _MIDDLE),
        (_FAR, _MIDDLE),
        (_NEAR, _FAR),
        (_FAR, _FAR),
    ),
}
# Pips are larger than on a real die: at 22 px (Discord's inline emoji size) a pip of
# this radius is still about two pixels wide.
_PIP_RADIUS = 0.105
_MARGIN = 0.04
_CORNER = 0.2
_OUTLINE = 0.045


class DieColour(Enum):
    """Die bodies for games with coloured dice; the value is (body, pips)."""

    RED = ((205, 38, 38), (255, 255, 255))
    ORANGE = ((245, 130, 20), (40, 28, 18))
    YELLOW = ((250, 210, 40), (40, 32, 18))
    GREEN = ((34, 150, 70), (255, 255, 255))
    BLUE = ((35, 95, 210), (255, 255, 255))
    PURPLE = ((125, 60, 175), (255, 255, 255))
    WHITE = ((246, 244, 238), (30, 30, 34))
    BLACK = ((36, 36, 42), (255, 255, 255))

    @property
    def body(self) -> Rgb:
        return self.value[0]

    @property
    def pips(self) -> Rgb:
        return self.value[1]


def outline_for(body: Rgb) -> Rgb:
    """An edge that shows the die on both Discord themes: lighter on dark bodies."""
    return mix(body, (255, 255, 255), 0.45) if is_dark(body) else mix(body, (0, 0, 0), 0.4)


def die_body_layer(body: Rgb, size: int = EMOJI_SIZE) -> Image.Image:
    """A supersampled blank die (no pips), for a game to draw its own symbol on.

    Pass the result to `canvas.finish(layer, size, size)` when done.
    """
    layer = new_layer(size, size)
    side = size * SUPERSAMPLE
    inset = round(side * _MARGIN)
    ImageDraw.Draw(layer).rounded_rectangle(
        (inset, inset, side - 1 - inset, side - 1 - inset),
        radius=round(side * _CORNER),
        fill=body,
        outline=outline_for(body),
        width=round(side * _OUTLINE),
    )
    return layer


def draw_die(face: int, body: Rgb, pips: Rgb, size: int = EMOJI_SIZE) -> Image.Image:
    """The face 1-6 of a die, `size` pixels square on a transparent background."""
    if face not in FACES:
        raise ValueError(f"a die face is 1 to 6, not {face}")
    layer = die_body_layer(body, size)
    side = size * SUPERSAMPLE
    radius = side * _PIP_RADIUS
    draw = ImageDraw.Draw(layer)
    for fx, fy in _PIPS[face]:
        x, y = fx * side, fy * side
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=pips)
    return finish(layer, size, size)


def die_png(face: int, body: Rgb, pips: Rgb) -> bytes:
    """`draw_die` as PNG bytes, ready to upload as an emoji."""
    return png_bytes(draw_die(face, body, pips))


def coloured_dice_emojis(prefix: str) -> dict[str, bytes]:
    """Every face of every `DieColour`, named `<prefix>_<colour>_<face>` (e.g. `pc1_red_6`)."""
    return {
        f"{prefix}_{colour.name.lower()}_{face}": die_png(face, colour.body, colour.pips)
        for colour in DieColour
        for face in FACES
    }
