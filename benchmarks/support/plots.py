"""Line charts as PNG, drawn with Pillow (a dependency already; matplotlib is not one).

One chart: a title, both axes with five labelled ticks, the axes' names, one coloured
line per series and a legend. Enough for a benchmark's figures over time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 900, 450
LEFT, RIGHT, TOP, BOTTOM = 80, 24, 44, 60  # margins around the plotting area
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")
TICKS = 5


@dataclass(frozen=True, slots=True)
class Series:
    """One line: its name in the legend and its (x, y) points."""

    name: str
    points: Sequence[tuple[float, float]]


def line_chart(
    path: Path, title: str, x_label: str, y_label: str, series: Sequence[Series]
) -> Path:
    """Draw `series` into a PNG at `path`; the y axis starts at 0."""
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=14)
    points = [point for line in series for point in line.points]
    x_high = max((x for x, _ in points), default=1.0) or 1.0
    y_high = _round_up(max((y for _, y in points), default=1.0))
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def at(x: float, y: float) -> tuple[float, float]:
        return (
            LEFT + x / x_high * (right - LEFT),
            bottom - y / y_high * (bottom - TOP),
        )

    draw.text((WIDTH / 2, 12), title, fill="black", font=font, anchor="mt")
    draw.line([(LEFT, TOP), (LEFT, bottom), (right, bottom)], fill="black", width=1)
    for tick in range(TICKS + 1):
        y = y_high * tick / TICKS
        _, py = at(0, y)
        draw.line([(LEFT - 4, py), (right, py)], fill="#e0e0e0" if tick else "black")
        draw.text((LEFT - 8, py), _label(y), fill="black", font=font, anchor="rm")
        x = x_high * tick / TICKS
        px, _ = at(x, 0)
        draw.line([(px, bottom), (px, bottom + 4)], fill="black")
        draw.text((px, bottom + 8), _label(x), fill="black", font=font, anchor="mt")
    draw.text(((LEFT + right) / 2, HEIGHT - 18), x_label, fill="black", font=font, anchor="mm")
    draw.text((8, TOP - 24), y_label, fill="black", font=font, anchor="lt")
    for index, line in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        scaled = [at(x, y) for x, y in line.points]
        if len(scaled) > 1:
            draw.line(scaled, fill=colour, width=2)
        for px, py in scaled if len(scaled) < 40 else ():
            draw.ellipse([px - 2, py - 2, px + 2, py + 2], fill=colour)
        legend_y = TOP + 6 + 18 * index
        draw.line([(right - 170, legend_y), (right - 150, legend_y)], fill=colour, width=3)
        draw.text((right - 144, legend_y), line.name, fill="black", font=font, anchor="lm")
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)
    return path


def _round_up(value: float) -> float:
    """A round top for the y axis at or above `value` (1, 2 or 5 times a power of ten)."""
    if value <= 0:
        return 1.0
    step = 10.0 ** (len(str(int(value))) - 1) if value >= 1 else 0.1
    while step * 10 < value:
        step *= 10
    for factor in (1, 2, 5, 10):
        if step * factor >= value:
            return step * factor
    return value


def _label(value: float) -> str:
    return f"{value:.0f}" if value >= 10 or value == int(value) else f"{value:.2g}"
