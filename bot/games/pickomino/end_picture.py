"""The picture sent when a game ends: everyone's score turn by turn.

A line chart of each player's score after every turn (the score the game counts), its
axes named in the game's language (`Axes`), and above it a legend: each player's colour
and name, in the order given (the final standings). The standings themselves (ranks,
scores, tiles, tallies) are the end screen's text only, so they are listed once; the
picture adds what text cannot show, how the game went. Names are drawn in full, in their
own script (bot.pictures.names), and cut only when one is wider than the picture.

Sized for a phone: Discord shows the picture about 281 px wide in a 390 px screen, so
every label is at least `MIN_LABEL` px in a picture `WIDTH` wide (11 px when shown).

Takes plain values (names, ints), not engine types, so it does not depend on the engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

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

_SCALE = 2  # drawn at twice the size, then scaled down: smooth lines and text
_MARGIN = 12
_LABEL_SIZE = MIN_LABEL  # the axes' numbers and titles
_NAME_SIZE = MIN_LABEL + 4  # the legend's names: 13 px on the phone, the picture's key
_KEY = 18  # a legend entry's colour square
_KEY_GAP = 8  # between the square and the name
_ENTRY_GAP = 24  # between one entry and the next on a legend line
_LEGEND_LINE = _NAME_SIZE + 12
_CHART_HEIGHT = 250


@dataclass(frozen=True)
class PlayerFinal:
    """One player at the end: their name and `score_by_turn`.

    `score_by_turn[i]` is the player's score after turn i + 1 of the game (every
    player's turns counted; the score the game counts: worms, and with Extrawurm the
    extra tiles and the Bratwurms), so a tile stolen on someone else's turn shows as a drop.
    """

    name: str
    score_by_turn: tuple[int, ...] = ()


@dataclass(frozen=True)
class Axes:
    """The chart's axis titles, in the game's language: turns across, the score up."""

    turns: str = ""
    score: str = ""


def draw_end_picture(players: Sequence[PlayerFinal], axes: Axes = Axes()) -> bytes:
    """The end-of-game picture as PNG bytes, `WIDTH` wide, taller when the legend needs
    more lines."""
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"an end picture shows 1 to {MAX_PLAYERS} players, not {len(players)}")
    entries = _legend(players)
    lines = 1 + max(line for line, _, _ in entries)
    legend_height = lines * _LEGEND_LINE
    height = _MARGIN + legend_height + _MARGIN + _CHART_HEIGHT + _MARGIN
    image = Image.new("RGB", (WIDTH * _SCALE, height * _SCALE), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for index, (line, left, width) in enumerate(entries):
        middle = _MARGIN + (line + 0.5) * _LEGEND_LINE
        _draw_entry(draw, players[index].name, PLAYER_COLOURS[index], (left, middle), width)
    chart_top = _MARGIN + legend_height + _MARGIN
    box = (_MARGIN, chart_top, WIDTH - _MARGIN, chart_top + _CHART_HEIGHT)
    _draw_chart(draw, players, box, axes)
    # This picture is drawn at every game's end, on the click that ends it, so each step
    # is the fast one where the picture looks the same: averaging each 2 x 2 block (a box
    # filter) smooths the edges as well as Lanczos at a fifteenth of the time; an octree
    # palette keeps every flat colour exact and the file half as large at a tenth of a
    # median cut's time; and zlib's default level gives up 3% of size for a sixth of
    # `optimize`'s time (4 players: 39.6 ms became 7.0, `bench_pictures`).
    small = image.reduce(_SCALE)
    palette = small.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return png_bytes(palette, optimize=False)


def _legend(players: Sequence[PlayerFinal]) -> list[tuple[int, float, float]]:
    """Each player's legend entry as (line, left, name width): entries side by side,
    a new line when the next one would not fit; a name wider than a whole line (and
    only such a name) is cut to it."""
    room = WIDTH - 2 * _MARGIN
    most = room - _KEY - _KEY_GAP
    entries: list[tuple[int, float, float]] = []
    line, left = 0, float(_MARGIN)
    for player in players:
        width = min(most, runs_width(name_runs(player.name, _NAME_SIZE * _SCALE)) / _SCALE)
        size = _KEY + _KEY_GAP + width
        if left > _MARGIN and left + size > _MARGIN + room:
            line, left = line + 1, float(_MARGIN)
        entries.append((line, left, width))
        left += size + _ENTRY_GAP
    return entries


def _draw_entry(
    draw: ImageDraw.ImageDraw, name: str, colour: Rgb, at: tuple[float, float], width: float
) -> None:
    """A legend entry: the player's colour (their line in the chart), then their name."""
    s = _SCALE
    left, middle = at
    square = (left * s, (middle - _KEY / 2) * s, (left + _KEY) * s, (middle + _KEY / 2) * s)
    draw.rounded_rectangle(square, radius=4 * s, fill=colour)
    name_left = (left + _KEY + _KEY_GAP) * s
    # A pixel to spare: the width was measured at this size, rounding must not cut it.
    draw_name(draw, (name_left, middle * s), name, _NAME_SIZE * s, TEXT, (width + 1) * s)


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
    plot_top = top + _LABEL_SIZE + 18  # the score axis's title sits above the plot
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


def warm_up() -> None:
    """Draw one picture and drop it, at start-up: the fonts, their glyph caches and
    Pillow's encoders are loaded then, not on the click that ends the process's first
    game (commit 7b11e57)."""
    draw_end_picture([PlayerFinal("Ada", (1, 3, 6)), PlayerFinal("Zoë", (2, 2, 4))], Axes("1", "2"))
