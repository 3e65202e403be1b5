"""The page's browser tests: the built page (never skipped: `make test` builds it), the
fake table server, and headless Chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser

from bot.table.assets import HOW_TO_BUILD, built_page
from tests.chromium import plain_chromium
from tests.table.page.fake_table import FakeTable
from tests.table.page.samples import WORDS


@pytest.fixture
def dist() -> Path:
    found = built_page()
    if found is None:
        pytest.fail(HOW_TO_BUILD, pytrace=False)
    return found


@pytest.fixture
async def table(dist: Path) -> AsyncIterator[FakeTable]:
    server = FakeTable(dist, WORDS)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with plain_chromium() as launched:
        yield launched
