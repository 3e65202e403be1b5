"""Look at an emoji set as Discord shows it: a contact sheet at 22 px and 44 px.

    python -m bot.pictures.preview OUTDIR MODULE:FUNCTION [MODULE:FUNCTION ...]

Each FUNCTION returns a `dict[str, bytes]` of emoji pictures (name -> PNG). Every
picture is written to OUTDIR/<name>.png, and OUTDIR/sheet.png shows them all, scaled
down on Discord's dark and light message backgrounds.
"""

from __future__ import annotations

import importlib
import io
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from PIL import Image

from bot.pictures.canvas import Rgb, png_bytes

DARK_BACKGROUND: Rgb = (49, 51, 56)
LIGHT_BACKGROUND: Rgb = (255, 255, 255)
SHEET_SIZES = (22, 44)
_GAP = 4
_PER_ROW = 24


def contact_sheet(
    images: Mapping[str, bytes],
    sizes: Sequence[int] = SHEET_SIZES,
    backgrounds: Sequence[Rgb] = (DARK_BACKGROUND, LIGHT_BACKGROUND),
) -> Image.Image:
    """All pictures in name order, one band per background and size, `_PER_ROW` a row."""
    pictures = [Image.open(io.BytesIO(images[name])).convert("RGBA") for name in images]
    rows = max(1, -(-len(pictures) // _PER_ROW))
    width = _GAP + _PER_ROW * (max(sizes) + _GAP)
    band_heights = [_GAP + rows * (size + _GAP) for size in sizes]
    sheet = Image.new("RGB", (width, sum(band_heights) * len(backgrounds)))
    top = 0
    for background in backgrounds:
        for size, band_height in zip(sizes, band_heights, strict=True):
            sheet.paste(background, (0, top, width, top + band_height))
            for index, picture in enumerate(pictures):
                small = picture.resize((size, size), Image.Resampling.LANCZOS)
                row, column = divmod(index, _PER_ROW)
                at = (_GAP + column * (size + _GAP), top + _GAP + row * (size + _GAP))
                sheet.paste(small, at, small)
            top += band_height
    return sheet


def _load(spec: str) -> Callable[[], dict[str, bytes]]:
    module_name, _, function_name = spec.partition(":")
    function: Callable[[], dict[str, bytes]] = getattr(
        importlib.import_module(module_name), function_name
    )
    return function


def main(argv: Sequence[str]) -> int:
    if len(argv) < 2 or any(":" not in spec for spec in argv[1:]):
        print("usage: python -m bot.pictures.preview OUTDIR MODULE:FUNCTION ...", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    images: dict[str, bytes] = {}
    for spec in argv[1:]:
        images.update(_load(spec)())
    for name, data in images.items():
        (out / f"{name}.png").write_bytes(data)
    (out / "sheet.png").write_bytes(png_bytes(contact_sheet(images)))
    print(f"{len(images)} pictures and sheet.png in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
