"""People's names in pictures, in any language they are written in.

Pillow's built-in font covers ASCII only, so names are drawn with DejaVu Sans, shipped in
`bot/pictures/fonts/` with its licence (Latin with every accent, Greek, Cyrillic, Hebrew,
Arabic and more). A letter it lacks is drawn with the first font that has it: a few
system fonts looked for where Debian puts them (CJK, when installed), then the built-in
font. What no font can draw is left out rather than shown as a box: an emoji or symbol
goes; an accented letter keeps its base letter; any other letter becomes "?".

A name is a list of runs, each a piece of text and the font that draws it. A name
written right to left is drawn right to left: Pillow's raqm layout (with FriBiDi)
orders and joins its letters; where Pillow lacks raqm, the letters are put in visual
order here (unjoined Arabic, but in the right order).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont, features

from bot.i18n.bidi import is_right_to_left
from bot.pictures.canvas import Rgb, font

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

NAME_FONT = Path(__file__).with_name("fonts") / "DejaVuSans.ttf"
# Used when installed, for the scripts DejaVu Sans lacks (Chinese, Japanese, Korean...).
SYSTEM_FALLBACKS = (
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
)
_PROBE_SIZE = 24
_ELLIPSIS = "…"
_DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn"}  # controls, joiners, direction marks, unassigned


@dataclass(frozen=True, slots=True)
class Run:
    text: str
    font: Font


@lru_cache(maxsize=32)
def name_fonts(size: int) -> tuple[Font, ...]:
    """The fonts a name is drawn with, in order of preference, at `size` pixels."""
    found: list[Font] = []
    for path in (NAME_FONT, *SYSTEM_FALLBACKS):
        if path.exists():
            try:
                found.append(ImageFont.truetype(str(path), size))
            except (OSError, ImportError):  # unreadable, or Pillow without FreeType
                continue
    found.append(font(size))
    return tuple(found)


@lru_cache(maxsize=8192)
def _font_for(char: str) -> int | None:
    """The index in `name_fonts` of the first font with a glyph for `char`."""
    for index, probe in enumerate(name_fonts(_PROBE_SIZE)):
        # A missing glyph is drawn as the font's "no glyph" mark; U+FFFF is in no font.
        if bytes(probe.getmask(char)) != bytes(probe.getmask("\uffff")):
            return index
    return None


@lru_cache(maxsize=1)
def has_raqm() -> bool:
    """Whether Pillow lays text out with raqm (bidirectional order, Arabic joining)."""
    return bool(features.check_feature("raqm"))


def visual_order(text: str) -> str:
    """`text` in the order a plain left-to-right drawing shows it right: the letters of
    each right-to-left stretch reversed, and the stretches reversed too when the text
    starts right to left. A simple reading of the bidirectional algorithm, enough for a
    name; used only without raqm."""
    if not is_right_to_left(text):
        return text
    stretches: list[tuple[bool, str]] = []  # (right to left, characters)
    for char in text:
        kind = unicodedata.bidirectional(char)
        rtl = True if kind in ("R", "AL") else False if kind in ("L", "EN", "AN") else None
        if stretches and (rtl is None or rtl == stretches[-1][0]):
            stretches[-1] = (stretches[-1][0], stretches[-1][1] + char)
        else:
            stretches.append((bool(rtl), char))
    shown = [part[::-1] if rtl else part for rtl, part in stretches]
    return "".join(reversed(shown) if stretches[0][0] else shown)


def name_runs(name: str, size: int) -> list[Run]:
    """`name` as runs of text, each with the font that draws it at `size` pixels."""
    fonts = name_fonts(size)
    pieces: list[tuple[str, int]] = []  # (character, font index)
    text = unicodedata.normalize("NFC", name)
    for char in text if has_raqm() else visual_order(text):
        category = unicodedata.category(char)
        if category in _DROPPED:
            continue
        if char.isspace():
            if pieces and pieces[-1][0] != " ":
                pieces.append((" ", pieces[-1][1]))
            continue
        index = _font_for(char)
        if index is not None:
            pieces.append((char, index))
        elif category.startswith("M"):
            continue  # a mark no font has (a variation selector, say)
        elif (base := _base_letters(char)) is not None:
            pieces.extend(base)
        elif category.startswith(("L", "N")):
            pieces.append(("?", 0))  # a letter nothing here can draw: keep its place
        # else an emoji or a symbol no font has: left out
    while pieces and pieces[-1][0] == " ":
        pieces.pop()
    if not pieces:
        return [Run("?", fonts[0])]
    runs: list[Run] = []
    for char, index in pieces:
        if runs and runs[-1].font is fonts[index]:
            runs[-1] = Run(runs[-1].text + char, fonts[index])
        else:
            runs.append(Run(char, fonts[index]))
    return runs


def _base_letters(char: str) -> list[tuple[str, int]] | None:
    """An accented letter no font has, as its base letter (ǅ -> Dž, ẞ stays out)."""
    parts = [
        (part, index)
        for part in unicodedata.normalize("NFKD", char)
        if not unicodedata.combining(part) and (index := _font_for(part)) is not None
    ]
    return parts or None


def runs_width(runs: Sequence[Run]) -> float:
    return sum(run.font.getlength(run.text) for run in runs)


def fit_runs(runs: Sequence[Run], width: float) -> list[Run]:
    """`runs` cut to `width` pixels, with an ellipsis where they were cut."""
    if runs_width(runs) <= width:
        return list(runs)
    kept = list(runs)
    while kept:
        last = kept[-1]
        shown = [*kept[:-1], Run(last.text + _ELLIPSIS, last.font)]
        if runs_width(shown) <= width:
            return shown
        text = last.text[:-1].rstrip()
        kept = [*kept[:-1], Run(text, last.font)] if text else kept[:-1]
    return [Run(_ELLIPSIS, runs[0].font)]


def draw_name(
    draw: ImageDraw.ImageDraw,
    left_middle: tuple[float, float],
    name: str,
    size: int,
    fill: Rgb,
    width: float,
) -> None:
    """`name` at `size` pixels, left-aligned and vertically centred on `left_middle`,
    at most `width` pixels wide."""
    x, y = left_middle
    for run in fit_runs(name_runs(name, size), width):
        draw.text((x, y), run.text, font=run.font, fill=fill, anchor="lm")
        x += run.font.getlength(run.text)
