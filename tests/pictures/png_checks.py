"""Checks every emoji picture test makes: a real PNG, the right size, small enough."""

from __future__ import annotations

import io

from PIL import Image

from bot.pictures.emojis import MAX_IMAGE_BYTES


def open_png(data: bytes) -> Image.Image:
    """The picture, after checking the bytes are a PNG that Pillow can fully decode."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image


def assert_emoji_set(images: dict[str, bytes], size: int = 128) -> None:
    """Every picture a transparent-cornered RGBA PNG of `size`, under 256 KiB, all distinct."""
    for name, data in images.items():
        image = open_png(data)
        assert image.size == (size, size), name
        assert image.mode == "RGBA", name
        assert image.getpixel((0, 0))[3] == 0, f"{name} has no transparent corner"
        assert len(data) < MAX_IMAGE_BYTES, name
    pixels = {open_png(data).tobytes() for data in images.values()}
    assert len(pixels) == len(images), "two emojis of the set look the same"


def count_pixels_near(image: Image.Image, colour: tuple[int, int, int], tolerance: int) -> int:
    """Opaque pixels whose red, green and blue differences from `colour` sum under `tolerance`."""
    colours = image.getcolors(maxcolors=image.width * image.height) or []
    return sum(
        count
        for count, pixel in colours
        if (len(pixel) == 3 or pixel[3] == 255)
        and sum(abs(a - b) for a, b in zip(pixel[:3], colour, strict=True)) < tolerance
    )
