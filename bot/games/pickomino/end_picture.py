"""The picture sent when a game ends: what everyone ended with, and their score turn by turn.

One row per player in the order given (the final standings): a colour that is also
their line in the chart, the name in full, then what they hold as small tiles, the
stack from bottom (left) to top (right) and then an extra tile (11 or 13), in the order
the end screen's text lists them, and their Bratwurms. The winner's row is outlined in
gold. The ranks and the sums are the end screen's text (one list of standings). Below, a
line chart of each player's score after every turn, with its axes named in the game's
language (`Axes`). Names are drawn in their own script (bot.pictures.names).

Sized for a phone: Discord shows the picture about 281 px wide in a 390 px screen, so
every label is at least `MIN_LABEL` px in a picture `WIDTH` wide (11 px when shown).

Takes plain values (names, ints), not engine types, so it does not depend on the engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.pickomino.pictures import draw_bratwurm, draw_tile
from bot.pictures.canvas import Rgb, png_bytes
from bot.pictures.names import draw_name, name_runs, runs_width

WIDTH = 600
MAX_PLAYERS = 7
PHONE_WIDTH = 281  # the picture's width on a 390 px phone screen (the preview's layout)
MIN_LABEL = math.ceil(11 * WIDTH / PHONE_WIDTH)  # 24: 11 px on that phone

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
_MARGIN = 12
_ROW = 52
_NAME_ROW = 34  # a name too long to share its row with the tiles gets a line of its own
_TILE = 48  # a tile's emoji square; the tile itself is about three quarters as wide
_TILE_STEP = 36
_NAME_LEFT = _MARGIN + 30
_NAME_SIZE = MIN_LABEL + 2
_LABEL_SIZE = MIN_LABEL
_MIN_TILE_ROOM = _TILE + 3 * _TILE_STEP  # a name may push the tiles this far right, no further
_CHART_HEIGHT = 290


@dataclass(frozen=True)
class PlayerFinal:
    """One player at the end: `stack` bottom to top (then any extra tile, 11 or 13),
    `score_by_turn` after each turn.

    `score_by_turn[i]` is the player's score after turn i + 1 of the game (every
    player's turns counted; the score the game counts: worms, and with Extrawurm the
    extra tiles and the Bratwurms), so a tile stolen on someone else's turn shows as a drop.
    """

    name: str
    stack: tuple[int, ...]
    score: int
    winner: bool = False
    score_by_turn: tuple[int, ...] = ()
    bratwurms: int = 0


@dataclass(frozen=True)
class Axes:
    """The chart's axis titles, in the game's language: turns across, the score up."""

    turns: str = ""
    score: str = ""


def draw_end_picture(players: Sequence[PlayerFinal], axes: Axes = Axes()) -> bytes:
    """The end-of-game picture as PNG bytes, `WIDTH` wide, taller with more players."""
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"an end picture shows 1 to {MAX_PLAYERS} players, not {len(players)}")
    widest = max(runs_width(name_runs(player.name, _NAME_SIZE)) for player in players)
    # Names and tiles share a row when the longest name leaves the tiles room; else each
    # name has a line of its own above its tiles: a name is never cut where it fits.
    own_line = _NAME_LEFT + widest + 14 + _MIN_TILE_ROOM > WIDTH - _MARGIN
    tiles_left = _NAME_LEFT if own_line else round(_NAME_LEFT + widest + 14)
    row = _ROW + (_NAME_ROW if own_line else 0)
    rows_height = len(players) * row
    height = _MARGIN + rows_height + _MARGIN + _CHART_HEIGHT + _MARGIN
    image = Image.new("RGB", (WIDTH * _SCALE, height * _SCALE), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for index, player in enumerate(players):
        top = _MARGIN + index * row
        _draw_row(image, draw, player, PLAYER_COLOURS[index], top, row, tiles_left, own_line)
    chart_top = _MARGIN + rows_height + _MARGIN
    box = (_MARGIN, chart_top, WIDTH - _MARGIN, chart_top + _CHART_HEIGHT)
    _draw_chart(draw, players, box, axes)
    small = image.resize((WIDTH, height), Image.Resampling.LANCZOS)
    # A palette keeps the file small (tens of KB); the picture has few colours anyway.
    return png_bytes(
        small.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    )


def _draw_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    player: PlayerFinal,
    colour: Rgb,
    top: int,
    row: int,
    tiles_left: int,
    own_line: bool,
) -> None:
    s = _SCALE
    if player.winner:
        draw.rounded_rectangle(
            (4 * s, top * s + 2 * s, (WIDTH - 4) * s, (top + row) * s - 2 * s),
            radius=8 * s,
            fill=(55, 57, 50),
            outline=GOLD,
            width=2 * s,
        )
    name_middle = (top + (_NAME_ROW if own_line else row) / 2) * s
    draw.rounded_rectangle(
        (_MARGIN * s, name_middle - 9 * s, (_MARGIN + 18) * s, name_middle + 9 * s),
        radius=4 * s,
        fill=colour,
    )
    room = (WIDTH - _MARGIN - _NAME_LEFT) * s
    draw_name(draw, (_NAME_LEFT * s, name_middle), player.name, _NAME_SIZE * s, TEXT, room)
    tiles_top = top + (_NAME_ROW if own_line else 0)
    _draw_holdings(image, draw, player, tiles_left, tiles_top)


def _draw_holdings(
    image: Image.Image, draw: ImageDraw.ImageDraw, player: PlayerFinal, left: int, top: int
) -> None:
    """The tiles, overlapping when a long stack would not fit, then the Bratwurms."""
    s = _SCALE
    bratwurm_room = 96 if player.bratwurms else 0
    room = WIDTH - _MARGIN - left - _TILE - bratwurm_room
    stack = player.stack
    step = min(_TILE_STEP, room / max(1, len(stack) - 1))
    y = round((top + (_ROW - _TILE) / 2) * s)
    if not stack and not player.bratwurms:
        # An empty slot, so "no tiles" reads as a result and not as something missing.
        inset = _TILE * 0.14 * s
        draw.rounded_rectangle(
            (left * s + inset, y + s, (left + _TILE) * s - inset, y + (_TILE - 1) * s),
            radius=5 * s,
            outline=FAINT,
            width=2 * s,
        )
    for index, value in enumerate(stack):
        tile = _tile(value, _TILE * s)
        image.paste(tile, (round((left + index * step) * s), y), tile)
    if player.bratwurms:
        x = left + (len(stack) - 1) * step + _TILE + 8 if stack else left
        middle = (top + _ROW / 2) * s
        draw_bratwurm(draw, ((x + 20) * s, middle), 40 * s, 14 * s)
        draw_name(
            draw, ((x + 44) * s, middle), f"×{player.bratwurms}", _LABEL_SIZE * s, TEXT, 60 * s
        )


@lru_cache(maxsize=64)
def _tile(value: int, size: int) -> Image.Image:
    return draw_tile(value, size)


def _draw_chart(
    draw: ImageDraw.ImageDraw,
    players: Sequence[PlayerFinal],
    box: tuple[int, int, int, int],
    axes: Axes,
) -> None:
    s = _SCALE
    left, top, right, bottom = box
    turns = max((len(player.score_by_turn) for player in players), default=0)
    most = max([4, *(w for player in players for w in player.score_by_turn)])
    y_step = _nice_step(most, 5)
    top_value = math.ceil(most / y_step) * y_step
    tick_size = _LABEL_SIZE * s
    widest_tick = runs_width(name_runs(str(top_value), tick_size)) / s
    plot_left = left + widest_tick + 10
    plot_top = top + _LABEL_SIZE + 10  # the score axis's title sits above the plot
    plot_bottom = bottom - 2 * _LABEL_SIZE - 12  # the turn numbers, then the turns' title
    x_step = _nice_step(max(turns, 1), 6)

    def at(turn: float, score: float) -> tuple[float, float]:
        x = plot_left + (right - 8 - plot_left) * turn / max(turns, 1)
        y = plot_bottom - (plot_bottom - plot_top) * score / top_value
        return (x * s, y * s)

    for score in range(0, top_value + 1, y_step):
        _, y = at(0, score)
        draw.line((plot_left * s, y, right * s, y), fill=FAINT, width=s)
        _label(draw, ((plot_left - 8) * s, y), str(score), "rm")
    for turn in range(0, turns + 1, x_step):
        x, _ = at(turn, 0)
        draw.line((x, plot_bottom * s, x, (plot_bottom + 4) * s), fill=FAINT, width=s)
        _label(draw, (x, (plot_bottom + 6) * s), str(turn), "mt")
    if axes.score:
        draw_name(draw, (left * s, (top + _LABEL_SIZE / 2) * s), axes.score, tick_size, TEXT,
                  (right - left) * s)  # fmt: skip
    if axes.turns:
        width = runs_width(name_runs(axes.turns, tick_size))
        middle = (bottom - _LABEL_SIZE / 2) * s
        draw_name(draw, (right * s - width, middle), axes.turns, tick_size, TEXT, width)

    # Later players are drawn first, so the leader's line lies on top where lines meet.
    for index in reversed(range(len(players))):
        series = (0, *players[index].score_by_turn)
        points = [at(turn, score) for turn, score in enumerate(series)]
        colour = PLAYER_COLOURS[index]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3 * s, joint="curve")
        x, y = points[-1]
        draw.ellipse((x - 5 * s, y - 5 * s, x + 5 * s, y + 5 * s), fill=colour)


def _label(draw: ImageDraw.ImageDraw, at: tuple[float, float], text: str, anchor: str) -> None:
    """A number on an axis, in the names' font (the built-in one is thin when small)."""
    runs = name_runs(text, _LABEL_SIZE * _SCALE)
    draw.text(at, text, font=runs[0].font, fill=TEXT, anchor=anchor)


def _nice_step(span: int, most_ticks: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50... giving at most `most_ticks` steps."""
    step = 1
    for factor in (2, 2.5, 2) * 10:
        if span / step <= most_ticks:
            return step
        step = round(step * factor)
    return step
