"""The real thing: Chromium draws sample messages at phone and desktop widths.

Needs /usr/bin/chromium and Playwright (`make test` installs them where it can). Without
them this fails with how to install them, unless SKIP_BROWSER=1."""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.preview import message_html
from bot.preview.__main__ import main
from bot.preview.shoot import Camera
from tests.chromium import browser_missing, chromium, skip_if_opted_out

SAMPLES = Path(__file__).parent / "samples" / "pickomino.json"
V2_SAMPLE = SAMPLES.parent / "components_v2.json"  # a Pickomino turn drawn with V2


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def camera() -> AsyncIterator[Camera]:
    """One Chromium for the module."""
    async with chromium() as shooter:
        yield shooter


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _write_png(path: Path, width: int, height: int) -> None:
    """A grey PNG of that size, written by hand (no image library needed)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    png = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + png)


@pytest.mark.asyncio(loop_scope="module")
async def test_images_load_from_local_paths_and_count_in_the_height(camera, tmp_path):
    _write_png(tmp_path / "tall.png", 10, 60)
    payload = {"content": "board", "attachments": [{"id": 0, "filename": "tall.png"}]}
    pages = [
        ("absolute", message_html(payload, images={"tall.png": str(tmp_path / "tall.png")})),
        ("relative", message_html(payload, images={"tall.png": "tall.png"})),  # to out_dir
        ("missing", message_html(payload)),  # a 16:9 placeholder, 400 px wide at most
    ]
    shots = await camera.shoot(pages, (800,), tmp_path)
    height = {shot.name: shot.height for shot in shots}
    assert height["absolute"] == height["relative"]
    assert height["missing"] - height["absolute"] == pytest.approx(225 - 60, abs=2)


@pytest.mark.asyncio(loop_scope="module")
async def test_an_embed_and_a_components_v2_message_at_phone_and_desktop_width(camera, tmp_path):
    turn = json.loads(SAMPLES.read_text(encoding="utf-8"))[1]
    pages = [
        ("turn", message_html(turn["payload"], names=turn["names"], now=turn["now"])),
        ("v2", message_html(json.loads(V2_SAMPLE.read_text(encoding="utf-8"))[0]["payload"])),
    ]
    shots = await camera.shoot(pages, (390, 800), tmp_path)
    assert [(shot.name, shot.width) for shot in shots] == [
        ("turn", 390),
        ("v2", 390),
        ("turn", 800),
        ("v2", 800),
    ]
    for shot in shots:
        assert shot.height > 0
        png_width, png_height = _png_size(shot.path)
        assert png_width == shot.width  # the message spans the chat column
        assert abs(png_height - shot.height) <= 1  # the PNG is the measured element
    height = {(shot.name, shot.width): shot.height for shot in shots}
    for name in ("turn", "v2"):
        assert height[(name, 390)] >= height[(name, 800)]
    assert height[("turn", 390)] > height[("turn", 800)]  # lines and buttons wrap on a phone
    assert _png_size(tmp_path / "page-390.png")[0] == 390


def test_the_command_line_prints_a_height_per_message_and_width(tmp_path, capsys):
    skip_if_opted_out()
    code = main([str(SAMPLES), "--out", str(tmp_path), "--widths", "390"])
    out, err = capsys.readouterr()
    if code == 2 and "install" in err:
        browser_missing(err.strip())
    assert code == 0, err
    names = ["lobby", "turn-5-players", "turn-7-players-14-claims", "final"]
    rows = [line.split() for line in out.splitlines()[1:5]]
    assert [row[:2] for row in rows] == [[name, "390"] for name in names]
    assert all(int(row[2]) > 100 for row in rows)
    files = [f"{index:02d}-{name}-390.png" for index, name in enumerate(names, start=1)]
    assert sorted(p.name for p in tmp_path.iterdir()) == [*files, "page-390.html", "page-390.png"]
