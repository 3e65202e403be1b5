"""The picture sent when a game ends: everyone's tiles, and their worms turn by turn.

One row per player in the order given (the final standings): a colour that is also
their line in the chart, a star for the winner, the name, the score, and the stack as
small tiles from bottom (left) to top (right). Below, a line chart of each player's
worms after every turn of the game. The picture holds no words, only names and
numbers, so it needs no translation; names are drawn in their own script
(bot.pictures.names).

Takes plain values (names, ints), not engine types, so it does not depend on the engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.pickomino.pictures import TILE_WORM, draw_tile, draw_worm
from bot.pictures.canvas import Rgb, font, png_bytes
from bot.pictures.names import draw_name

WIDTH = 800
MAX_PLAYERS = 7

# Okabe and Ito's colours, told apart also by most colour-blind readers; on a dark
# background like Discord's own so the picture sits well in the chat.
PLAYER_COLOURS: tuple[Rgb, ...] = (
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (240, 228, 66),
    (213, 94, 0),
    (204, 121, 167),
    (150, 150, 255),
)
BACKGROUND: Rgb = (43, 45, 49)
TEXT: Rgb = (242, 243, 245)
FAINT: Rgb = (78, 80, 88)
GOLD: Rgb = (250, 200, 40)

_SCALE = 2  # drawn at twice the size, then scaled down: smooth lines and text
_MARGIN = 16
_ROW = 54
_TILE = 48  # a tile's emoji square; the tile itself is about three quarters as wide
_TILE_STEP = 36
_NAME_WIDTH = 150
_TILES_LEFT = 300
_CHART_HEIGHT = 230


@dataclass(frozen=True)
class PlayerFinal:
    """One player at the end: `stack` bottom to top, `worms_by_turn` after each turn.

    `worms_by_turn[i]` is the player's worms after turn i + 1 of the game (every
    player's turns counted), so a tile stolen on someone else's turn shows as a drop.
    """

    name: str
    stack: tuple[int, ...]
    score: int
    winner: bool = False
    worms_by_turn: tuple[int, ...] = ()


def draw_end_picture(players: Sequence[PlayerFinal]) -> bytes:
    """The end-of-game picture as PNG bytes, `WIDTH` wide, taller with more players."""
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"an end picture shows 1 to {MAX_PLAYERS} players, not {len(players)}")
    height = _MARGIN + len(players) * _ROW + _MARGIN + _CHART_HEIGHT + _MARGIN
    image = Image.new("RGB", (WIDTH * _SCALE, height * _SCALE), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for index, player in enumerate(players):
        _draw_row(image, draw, player, PLAYER_COLOURS[index], _MARGIN + index * _ROW)
    chart_top = _MARGIN + len(players) * _ROW + _MARGIN
    _draw_chart(draw, players, (_MARGIN, chart_top, WIDTH - _MARGIN, chart_top + _CHART_HEIGHT))
    small = image.resize((WIDTH, height), Image.Resampling.LANCZOS)
    # A palette keeps the file small (tens of KB); the picture has few colours anyway.
    return png_bytes(
        small.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    )


def _draw_row(
    image: Image.Image, draw: ImageDraw.ImageDraw, player: PlayerFinal, colour: Rgb, top: int
) -> None:
    s = _SCALE
    middle = (top + _ROW / 2) * s
    if player.winner:
        draw.rounded_rectangle(
            (4 * s, top * s + 2 * s, (WIDTH - 4) * s, (top + _ROW) * s - 2 * s),
            radius=8 * s,
            fill=(55, 57, 50),
            outline=GOLD,
            width=s,
        )
    draw.rounded_rectangle(
        (_MARGIN * s, middle - 9 * s, (_MARGIN + 18) * s, middle + 9 * s), radius=4 * s, fill=colour
    )
    if player.winner:
        _draw_star(draw, ((_MARGIN + 36) * s, middle), 11 * s, GOLD)
    name_left = _MARGIN + 54
    draw_name(draw, (name_left * s, middle), player.name, 22 * s, TEXT, _NAME_WIDTH * s)
    score_right = _TILES_LEFT - 12
    draw.text(
        ((score_right - 26) * s, middle),
        str(player.score),
        font=font(26 * s),
        fill=TEXT,
        anchor="rm",
    )
    draw_worm(draw, ((score_right - 11) * s, middle), 20 * s, 7 * s, TILE_WORM)
    _draw_stack(image, player.stack, top)


def _draw_stack(image: Image.Image, stack: Sequence[int], top: int) -> None:
    s = _SCALE
    room = WIDTH - _MARGIN - _TILES_LEFT - _TILE
    # Tiles overlap, the top one last, when a long stack would not fit side by side.
    step = min(_TILE_STEP, room / max(1, len(stack) - 1))
    y = round((top + (_ROW - _TILE) / 2) * s)
    if not stack:
        # An empty slot, so "no tiles" reads as a result and not as something missing.
        inset = _TILE * 0.14 * s
        ImageDraw.Draw(image).rounded_rectangle(
            (
                _TILES_LEFT * s + inset,
                y + s,
                (_TILES_LEFT + _TILE) * s - inset,
                y + (_TILE - 1) * s,
            ),
            radius=5 * s,
            outline=FAINT,
            width=2 * s,
        )
    for index, value in enumerate(stack):
        tile = _tile(value, _TILE * s)
        image.paste(tile, (round((_TILES_LEFT + index * step) * s), y), tile)


@lru_cache(maxsize=64)
def _tile(value: int, size: int) -> Image.Image:
    return draw_tile(value, size)


def _draw_star(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, fill: Rgb
) -> None:
    cx, cy = centre
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    draw.polygon(points, fill=fill)


def _draw_chart(
    draw: ImageDraw.ImageDraw, players: Sequence[PlayerFinal], box: tuple[int, int, int, int]
) -> None:
    s = _SCALE
    left, top, right, bottom = box
    plot_left, plot_bottom = left + 34, bottom - 22
    turns = max((len(player.worms_by_turn) for player in players), default=0)
    most = max([4, *(w for player in players for w in player.worms_by_turn)])
    y_step = _nice_step(most, 6)
    top_value = math.ceil(most / y_step) * y_step
    x_step = _nice_step(max(turns, 1), 12)

    def at(turn: float, worms: float) -> tuple[float, float]:
        x = plot_left + (right - plot_left) * turn / max(turns, 1)
        y = plot_bottom - (plot_bottom - top - 8) * worms / top_value
        return (x * s, y * s)

    tick_font = font(15 * s)
    for worms in range(0, top_value + 1, y_step):
        _, y = at(0, worms)
        draw.line((plot_left * s, y, right * s, y), fill=FAINT, width=s)
        draw.text(((plot_left - 8) * s, y), str(worms), font=tick_font, fill=TEXT, anchor="rm")
    for turn in range(0, turns + 1, x_step):
        x, _ = at(turn, 0)
        draw.line((x, plot_bottom * s, x, (plot_bottom + 4) * s), fill=FAINT, width=s)
        draw.text((x, (plot_bottom + 6) * s), str(turn), font=tick_font, fill=TEXT, anchor="mt")
    # The y axis is worms: a worm above its numbers says so without a word.
    draw_worm(draw, ((plot_left - 14) * s, (top - 2) * s), 18 * s, 6 * s, TILE_WORM)

    # Later players are drawn first, so the leader's line lies on top where lines meet.
    for index in reversed(range(len(players))):
        series = (0, *players[index].worms_by_turn)
        points = [at(turn, worms) for turn, worms in enumerate(series)]
        colour = PLAYER_COLOURS[index]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3 * s, joint="curve")
        x, y = points[-1]
        draw.ellipse((x - 4 * s, y - 4 * s, x + 4 * s, y + 4 * s), fill=colour)


def _nice_step(span: int, most_ticks: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50... giving at most `most_ticks` steps."""
    step = 1
    for factor in (2, 2.5, 2) * 10:
        if span / step <= most_ticks:
            return step
        step = round(step * factor)
    return step
