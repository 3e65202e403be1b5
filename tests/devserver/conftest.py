"""The browsers the page's tests draw in."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Browser, async_playwright

from bot.preview.shoot import Camera
from tests.chromium import browser_missing, chromium, skip_if_opted_out
from tests.table.page.conftest import ARGS, CHROMIUM


@pytest.fixture(autouse=True)
def stand_in_tables(bots_load_stand_in_tables: None) -> None:
    """Every bot process here loads stand-ins for Picker's tables (tests/conftest.py)."""


@pytest.fixture
async def camera() -> AsyncIterator[Camera]:
    async with chromium() as shooter:
        yield shooter


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """Headless Chromium as the table's tests launch it (tests/table/page/conftest.py)."""
    skip_if_opted_out()
    if not CHROMIUM.exists():
        browser_missing(f"no {CHROMIUM}: apt-get install chromium (make does it when it can)")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()
