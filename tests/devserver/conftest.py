"""The browser the page's tests draw in."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.preview.shoot import Camera
from tests.chromium import chromium


@pytest.fixture
async def camera() -> AsyncIterator[Camera]:
    async with chromium() as shooter:
        yield shooter
