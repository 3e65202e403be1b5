"""Screenshots of message fragments in headless Chromium, at phone and desktop widths,
with each message's height as the browser lays it out.

Uses Playwright for Python (its wheel carries the driver) with the system's Chromium
(`apt-get install chromium fonts-noto-color-emoji`); it never downloads a browser."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from bot.i18n import t
from bot.preview.html import page_html

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright

CHROMIUM = Path("/usr/bin/chromium")
PHONE, DESKTOP = 390, 800
WIDTHS = (PHONE, DESKTOP)
VIEWPORT_HEIGHT = 900
MEASURE = "els => els.map(e => e.getBoundingClientRect().height)"


class BrowserMissing(RuntimeError):
    """Chromium or Playwright is not installed; the message says how to install them."""


@dataclass(frozen=True)
class Shot:
    """One message drawn at one width: its height in CSS px and its PNG."""

    name: str
    width: int
    height: float
    path: Path


class Camera:
    """One Chromium for many screenshots: `async with Camera() as camera: ...`."""

    def __init__(self, executable: Path | None = None) -> None:
        self.executable = executable or CHROMIUM
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    @property
    def browser(self) -> Browser:
        """The running Chromium, for pages of one's own (the play page's browser test)."""
        if self._browser is None:
            raise RuntimeError("the camera is not open: use `async with Camera()`")
        return self._browser

    async def __aenter__(self) -> Camera:
        if not self.executable.exists():
            raise BrowserMissing(t("preview.error.browser", reason=f"no {self.executable}"))
        try:
            from playwright.async_api import Error, async_playwright
        except ImportError as error:
            raise BrowserMissing(t("preview.error.playwright")) from error
        # Chromium refuses to run as root with its sandbox on.
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        self._playwright = await async_playwright().start()
        try:
            self._browser = await self._playwright.chromium.launch(
                executable_path=str(self.executable), args=args
            )
        except Error as error:
            await self._playwright.stop()
            reason = str(error).strip().splitlines()[0]
            raise BrowserMissing(t("preview.error.browser", reason=reason)) from error
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._browser is not None:
            await self._browser.close()
        if self._playwright is not None:
            await self._playwright.stop()

    async def shoot(
        self,
        pages: Sequence[tuple[str, str]],
        widths: Sequence[int] = WIDTHS,
        out_dir: Path | str = "previews",
    ) -> list[Shot]:
        """Draw every (name, message fragment) at every width; save one PNG a message and
        width, and the whole page a width (`page-<width>.html` and `.png`)."""
        assert self._browser is not None, "use the camera inside `async with`"
        folder = Path(out_dir)
        folder.mkdir(parents=True, exist_ok=True)
        names = [name for name, _ in pages]
        files = _file_names(names)
        shots: list[Shot] = []
        for width in widths:
            page = await self._browser.new_page(
                viewport={"width": width, "height": VIEWPORT_HEIGHT}, device_scale_factor=1
            )
            try:
                await page.route("**/*", _offline)
                # A file, not set_content: image paths (absolute, or relative to out_dir)
                # resolve, and the page can be opened again in any browser.
                document = folder / f"page-{width}.html"
                document.write_text(page_html([html for _, html in pages], width), "utf-8")
                await page.goto(document.resolve().as_uri())
                await page.evaluate("document.fonts.ready.then(() => true)")
                messages = await page.query_selector_all(".dc-slot > .dc-message")
                heights = await page.eval_on_selector_all(".dc-slot > .dc-message", MEASURE)
                for name, file, element, height in zip(
                    names, files, messages, heights, strict=True
                ):
                    path = folder / f"{file}-{width}.png"
                    await element.screenshot(path=str(path))
                    shots.append(Shot(name, width, float(height), path))
                await page.screenshot(path=str(folder / f"page-{width}.png"), full_page=True)
            finally:
                await page.close()
        return shots


async def _offline(route: Any) -> None:
    """Nothing leaves the machine: only inline (data:) resources and local files load."""
    if route.request.url.startswith(("data:", "file:", "about:")):
        await route.continue_()
    else:
        await route.abort()


def _file_names(names: Sequence[str]) -> list[str]:
    """Safe, unique, ordered file names: `01-lobby`, `02-turn`..."""
    return [
        f"{index:02d}-{re.sub(r'[^A-Za-z0-9._-]+', '-', name).strip('-.')[:60] or 'message'}"
        for index, name in enumerate(names, start=1)
    ]


async def screenshot(
    pages: Sequence[tuple[str, str]],
    widths: Sequence[int] = WIDTHS,
    out_dir: Path | str = "previews",
    *,
    executable: Path | None = None,
) -> list[Shot]:
    """Launch Chromium once, draw every (name, fragment) at every width, close it.
    Raises BrowserMissing (with how to install it) when it cannot start."""
    async with Camera(executable) as camera:
        return await camera.shoot(pages, widths, out_dir)
