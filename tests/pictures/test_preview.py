from __future__ import annotations

from pathlib import Path

import pytest

from bot.pictures.dice import die_png
from bot.pictures.preview import DARK_BACKGROUND, LIGHT_BACKGROUND, contact_sheet, main
from tests.pictures.png_checks import open_png

SAMPLE = {f"tt1_{face}": die_png(face, (255, 255, 255), (0, 0, 0)) for face in range(1, 7)}


def sample_emojis() -> dict[str, bytes]:
    return SAMPLE


def test_sheet_has_a_band_per_size_and_background() -> None:
    sheet = contact_sheet(SAMPLE, sizes=(22, 44))
    # One row of pictures per band: 4 px gaps around 22 and 44 px pictures, twice.
    assert sheet.height == 2 * ((4 + 22 + 4) + (4 + 44 + 4))
    assert sheet.getpixel((0, 0)) == DARK_BACKGROUND
    assert sheet.getpixel((0, sheet.height - 1)) == LIGHT_BACKGROUND
    # The first die sits at (4, 4) in the first band: its centre is not background.
    assert sheet.getpixel((4 + 11, 4 + 11)) != DARK_BACKGROUND


def test_command_writes_each_picture_and_the_sheet(tmp_path: Path) -> None:
    assert main([str(tmp_path), f"{__name__}:sample_emojis"]) == 0
    assert (tmp_path / "tt1_3.png").read_bytes() == SAMPLE["tt1_3"]
    open_png((tmp_path / "sheet.png").read_bytes())


def test_command_without_a_set_prints_usage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path)]) == 2
    assert "usage:" in capsys.readouterr().err
