"""Opening the table page inside the fake Discord parent, and reading it back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlencode

from playwright.async_api import Browser, BrowserContext, Frame, FrameLocator, Page, ViewportSize

from tests.table.page.fake_table import FakeTable

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 720}

# In every frame, before its scripts: what the CSP refused and what went uncaught.
WATCH = """
window.__problems = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__problems.push(`csp ${e.violatedDirective} ${e.blockedURI}`));
window.addEventListener('error', (e) => window.__problems.push(`error ${e.message}`));
window.addEventListener('unhandledrejection',
  (e) => window.__problems.push(`rejection ${e.reason && (e.reason.message || e.reason)}`));
"""


@dataclass
class Tab:
    """One browser tab with the fake Discord around the table page."""

    context: BrowserContext
    page: Page
    framed: bool
    console: list[str] = field(default_factory=list)

    @property
    def table(self) -> FrameLocator | Page:
        """Where the table's locators start: the iframe, or the page opened alone."""
        return self.page.frame_locator("iframe") if self.framed else self.page

    @property
    def frame(self) -> Frame:
        return self.page.main_frame.child_frames[0] if self.framed else self.page.main_frame

    async def problems(self) -> list[str]:
        """CSP violations, uncaught errors and console errors of the table's frame."""
        found: list[str] = await self.frame.evaluate("window.__problems")
        return found + [line for line in self.console if line.startswith("error")]

    async def parent_seen(self) -> list[list[Any]]:
        """Every [opcode, payload] the page sent to Discord."""
        return await self.page.evaluate("window.parentSeen")

    async def close(self) -> None:
        await self.context.close()


async def open_tab(
    browser: Browser,
    table: FakeTable,
    query: Mapping[str, str] | None = None,
    *,
    viewport: ViewportSize = PHONE,
    reduced_motion: Literal["reduce", "no-preference"] = "no-preference",
    parent: bool = True,
) -> Tab:
    """A new context at `viewport`; the parent page (Discord) with `query` (user, locale,
    platform, decline), or with `parent=False` the table page alone."""
    context = await browser.new_context(
        viewport=viewport,
        device_scale_factor=1,
        reduced_motion=reduced_motion,
        locale="en-US",
    )
    await context.add_init_script(WATCH)
    # Nothing leaves the machine: a request elsewhere fails, and shows in problems().
    await context.route(lambda url: not url.startswith(table.url), lambda route: route.abort())
    page = await context.new_page()
    tab = Tab(context, page, framed=parent)
    page.on("console", lambda message: tab.console.append(f"{message.type}: {message.text}"))
    path = f"/.discord/discord_parent.html?{urlencode(query or {})}" if parent else "/"
    await page.goto(table.url + path)
    return tab
