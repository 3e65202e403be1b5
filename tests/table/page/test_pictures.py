"""The table at a phone held upright (390 x 844) and on a desktop (1280 x 720), in en, de
and pl: the lobby, a turn mid-roll, a steal, the end, and a Picker round (in English a
few more of the scene code's samples). Each is saved as a picture (out/table-shots/,
TABLE_SHOTS=dir elsewhere) and measured: nothing wider than the screen, no text spilling
out of its box, every button at least 44 px both ways, text contrast at least 4.5:1, the
buttons inside the screen; how tall each part is, printed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, expect

from tests.table.page import samples
from tests.table.page.driver import DESKTOP, PHONE, Tab, open_tab
from tests.table.page.fake_table import FakeTable

REPO = Path(__file__).resolve().parents[3]
SHOTS = Path(os.environ.get("TABLE_SHOTS", REPO / "out" / "table-shots"))
# Picture name -> sample: the four the issue asks for, and Picker's round, in every
# language; the other samples (a bust, Extrawurm, eight Picker players...) in English.
EVERYWHERE = {
    "lobby": "pickomino_lobby",
    "mid-roll": "pickomino_mid_roll",
    "steal": "pickomino_steal",
    "end": "pickomino_end",
    "picker": "picker_round",
}
ENGLISH_TOO = {
    "watching": "pickomino_lobby_watching",
    "bust": "pickomino_bust",
    "extrawurm": "pickomino_extrawurm",
    "picker-end": "picker_end",
    "picker-eight": "picker_eight",
}
LOCALES = {"en": "en-US", "de": "de", "pl": "pl"}

# Measured in the table's frame once a scene is drawn and its pictures are in.
MEASURE = (Path(__file__).parent / "static" / "measure.js").read_text("utf-8")

SETTLED = """async () => {
  await Promise.all([...document.images].map((i) => i.decode().catch(() => null)));
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
  return true;
}"""


async def draw(tab: Tab, table: FakeTable, sample: str, lang: str, version: int) -> None:
    frame = samples.state(sample, lang, version=version)
    await table.show(frame)
    scene = frame["scene"]
    await expect(tab.table.locator(f".phase-{scene['phase']}")).to_have_count(1)
    await expect(tab.table.get_by_text(scene["headline"], exact=True).first).to_be_visible()
    await tab.frame.evaluate(SETTLED)


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_the_table_fits_a_phone_and_a_desktop(
    browser: Browser, table: FakeTable, lang: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for viewport in (PHONE, DESKTOP):
        size = f"{viewport['width']}x{viewport['height']}"
        table.state = samples.state("start", lang, version=0, session=None)
        tab = await open_tab(browser, table, {"locale": LOCALES[lang]}, viewport=viewport)
        await table.frame("hello")
        shown = EVERYWHERE | (ENGLISH_TOO if lang == "en" else {})
        for version, (name, sample) in enumerate(shown.items(), start=1):
            await draw(tab, table, sample, lang, version)
            await tab.page.screenshot(path=str(SHOTS / f"{name}-{lang}-{size}.png"))
            m: dict[str, Any] = await tab.frame.evaluate(MEASURE)
            fits = "fits" if m["playContent"] <= m["play"] else "scrolls"
            smallest = "none" if m["smallest"] == float("inf") else f"{m['smallest']:.0f} px"
            print(
                f"{name:8} {lang} {size}: bar {m['bar']:.0f} + state {m['state']:.0f} + game "
                f"{m['play']:.0f} (content {m['playContent']:.0f}, {fits}) + buttons "
                f"{m['actions']:.0f} px; smallest button {smallest}"
            )
            where = f"{name} {lang} {size}"
            if m["pageWidth"] > m["viewWidth"] or m["wide"]:
                problems.append(f"{where}: wider than the screen: {m['wide']}")
            problems += [f"{where}: button under 44 px: {label}" for label in m["small"]]
            problems += [f"{where}: contrast under 4.5: {text}" for text in m["lowContrast"]]
            problems += [f"{where}: text cut: {text}" for text in m["cut"]]
            problems += [f"{where}: words broken: {text}" for text in m["squeezed"]]
            if m["actionsBottom"] > m["viewHeight"] + 0.5:
                problems.append(f"{where}: the buttons end below the screen")
        assert await tab.problems() == []
        await tab.close()
    assert problems == []
