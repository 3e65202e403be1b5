"""The browsers the page's tests draw in."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Browser

from bot.preview.shoot import Camera
from tests.chromium import chromium, plain_chromium


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
    async with plain_chromium() as launched:
        yield launched
