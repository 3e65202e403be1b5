"""The browser the page's tests draw in."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.preview.shoot import Camera
from tests.chromium import chromium


@pytest.fixture(autouse=True)
def stand_in_tables(bots_load_stand_in_tables: None) -> None:
    """Every bot process here loads stand-ins for Picker's tables (tests/conftest.py)."""


@pytest.fixture
async def camera() -> AsyncIterator[Camera]:
    async with chromium() as shooter:
        yield shooter
