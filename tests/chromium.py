"""Headless Chromium for the tests that draw in a real browser.

Without Chromium or Playwright such a test fails with one line saying how to install
them (the message `BrowserMissing` carries), unless the run opted out with SKIP_BROWSER=1.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import NoReturn

import pytest
from playwright.async_api import Browser, async_playwright

from bot.preview.shoot import BrowserMissing, Camera

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]


def skip_if_opted_out() -> None:
    if os.environ.get("SKIP_BROWSER") == "1":
        pytest.skip("SKIP_BROWSER=1")


def browser_missing(how_to_install: str) -> NoReturn:
    pytest.fail(how_to_install, pytrace=False)


@asynccontextmanager
async def chromium() -> AsyncIterator[Camera]:
    """A started Camera, closed afterwards."""
    skip_if_opted_out()
    shooter = Camera()
    missing = ""
    try:
        await shooter.__aenter__()
    except BrowserMissing as error:
        missing = str(error)  # failed outside the except: no chained traceback
    if missing:
        browser_missing(missing)
    try:
        yield shooter
    finally:
        await shooter.__aexit__(None, None, None)


@asynccontextmanager
async def plain_chromium() -> AsyncIterator[Browser]:
    """Headless Debian Chromium, launched as the table's tests want it (no Camera)."""
    skip_if_opted_out()
    if not CHROMIUM.exists():
        browser_missing(f"no {CHROMIUM}: apt-get install chromium (make does it when it can)")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()
