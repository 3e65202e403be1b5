"""`make play`'s name box, languages and connection in a real browser.

- A name with emoji ("🦄 Zoë ✨") and a right-to-left one ("مرحبا") sit down from `?as=`
  and play a whole Pickomino game with a computer player, one socket each.
- A name Discord would refuse (33 characters, blank) opens the box again with the
  reason and the name as typed, on the one socket it was refused on; a good name then
  sits down. In German, the page's words, the suggestions (the commands' German names),
  Discord's own words and the bot's answers are German.
- A server that accepts each socket and closes it at once: the tab opens no more than 3
  sockets in 30 s. Counted for 6 s (3 at 0, ~0.5 and ~1.5 s), with the 4th scheduled no
  sooner than 30 s after the first: the page opens at most 3 in any 30 s by
  construction (play.js, MAX_OPENS in OPEN_WINDOW), so 6 s prove what 30 would.

Screenshots at 390 px go to out/play-test/ (PLAY_ARTIFACTS elsewhere).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from bot.devserver.page import Page
from bot.devserver.standin import FakeDiscord
from bot.i18n import t
from bot.preview.shoot import Camera
from tests.devserver.play_driver import (
    ISOLATES,
    START_TIMEOUT,
    Tab,
    open_game,
    pickomino_move,
    play_server,
    play_to_the_end,
)
from tests.devserver.test_page import post
from tests.devserver.test_play_browser import ARTIFACTS

ZOE = "🦄 Zoë ✨"
RTL = "مرحبا"
BUDGET = 240.0


async def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


async def sockets(page: Any) -> int:
    return int(await page.evaluate("() => window.playStats.sockets"))


async def test_an_emoji_name_and_a_right_to_left_name_play_a_game(
    camera: Camera, tmp_path: Path
) -> None:
    async with asyncio.timeout(BUDGET), play_server(tmp_path / "data") as server:
        zoe = await Tab.open(camera.browser, server.url, ZOE)
        rtl = await Tab.open(camera.browser, server.url, RTL)
        for tab in (zoe, rtl):
            assert tab.name in (await tab.page.inner_text("#me")).translate(ISOLATES)
        tabs = {ZOE: zoe, RTL: rtl}
        await open_game(tabs, "/pickomino start turn_timer:0")
        await play_to_the_end(None, tabs, pickomino_move, wrong_turn_by=None)
        final = (await zoe.live()).text
        assert ZOE in final and RTL in final
        await zoe.page.evaluate("() => { const c = document.getElementById('chat');"
                                " c.scrollTop = c.scrollHeight; }")  # fmt: skip
        await shot(zoe.page, "names-end-390")
        assert [await sockets(tab.page) for tab in (zoe, rtl)] == [1, 1]
        assert not zoe.errors and not rtl.errors, zoe.errors + rtl.errors
    assert not server.problems(), "\n".join(server.problems())


async def test_a_refused_name_asks_again_with_its_reason_and_german_is_german(
    camera: Camera, tmp_path: Path
) -> None:
    async with asyncio.timeout(BUDGET), play_server(tmp_path / "data") as server:
        context = await camera.browser.new_context(viewport={"width": 390, "height": 844})
        page = await context.new_page()
        opened: list[str] = []
        page.on("websocket", lambda ws: opened.append(ws.url))
        long_name = "x" * 33
        await page.goto(f"{server.url}/?{urlencode({'as': long_name, 'lang': 'de'})}")
        await page.wait_for_selector("#name-dialog[open]")
        await page.wait_for_function("() => !document.getElementById('name-refusal').hidden")
        reason = await page.inner_text("#name-refusal")
        assert reason == t("play.refusal.name_long", "de", count=33, limit=32)
        assert await page.input_value("#name-input") == long_name  # as typed, to shorten
        assert await page.inner_text("#name-count") == "33/32"
        await shot(page, "name-refused-de-390")
        await asyncio.sleep(2)  # no reconnecting with a refused name
        assert len(opened) == 1 and await sockets(page) == 1
        assert "as=" not in page.url  # a reload does not bring the refused name back

        await page.fill("#name-input", "   ")
        await page.click("#name-form button")
        await page.wait_for_function(
            "(text) => document.getElementById('name-refusal').textContent === text",
            arg=t("play.refusal.name_empty", "de"),
        )
        assert await page.is_visible("#name-dialog[open]")
        await page.fill("#name-input", ZOE)
        assert await page.inner_text("#name-count") == "7/32"  # code points, as Discord
        await page.click("#name-form button")
        await page.wait_for_function(
            "() => window.playStats.online && window.playStats.commands > 1",
            timeout=START_TIMEOUT * 1000,
        )
        assert not await page.is_visible("#name-dialog")
        assert ZOE in (await page.inner_text("#me")).translate(ISOLATES)
        assert len(opened) == 3

        # The page in German: its words, the commands' German names, Discord's words.
        assert await page.inner_text("#new-channel") == "+ Kanal"
        await page.fill("#command", "/pickomino ")
        suggested = await page.locator("#suggestions .play-what").all_inner_texts()
        assert "starten" in suggested and "start" not in suggested
        await page.fill("#command", f"/pickomino starten {t('command.option.hints', 'de')}:")
        assert await page.locator("#suggestions .play-what").all_inner_texts() == [
            "Wahr",
            "Falsch",
        ]
        await page.fill("#command", "/pickomino starten")
        await page.press("#command", "Escape")
        await page.press("#command", "Enter")
        await page.wait_for_selector("#chat .dc-command-line")
        assert "verwendete /pickomino starten" in await page.inner_text("#chat .dc-command-line")
        assert "Heute um" in await page.inner_text("#chat")
        add_bot = t("lobby.button.add_bot", "de")
        await page.click(f"#chat .dc-button:has-text('{add_bot}')")
        await page.wait_for_selector("#chat .dc-ephemeral-note")
        note = await page.inner_text("#chat .dc-ephemeral-note")
        assert "Nur du kannst das sehen" in note and "Nachricht verwerfen" in note
        await page.evaluate("() => { const c = document.getElementById('chat');"
                            " c.scrollTop = c.scrollHeight; }")  # fmt: skip
        await shot(page, "table-de-390")
        await context.close()
    assert not server.problems(), "\n".join(server.problems())


class ClosingPage(Page):
    """The page, but every socket is closed as soon as it opens (a server in trouble)."""

    opened = 0

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        self.opened += 1
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.close(code=1011, message=b"trouble")
        return ws


async def test_a_server_that_closes_every_socket_gets_no_more_than_three_in_30_seconds(
    camera: Camera,
) -> None:
    fake = FakeDiscord(players=(), channel_names=("dice-games",))
    page_server = ClosingPage(fake)
    await fake.start(setup=page_server.setup)
    try:
        context = await camera.browser.new_context(viewport={"width": 390, "height": 844})
        page = await context.new_page()
        first: list[float] = []
        page.on("websocket", lambda ws: first.append(time.monotonic()))
        await page.goto(f"{fake.base_url}/?as=Anne")
        await asyncio.sleep(6)
        assert len(first) == page_server.opened == await sockets(page) == 3
        waits_ms = await page.evaluate("() => window.playStats.nextAttemptAt - Date.now()")
        # (the event reaches Python a little after the page opened the socket)
        assert time.monotonic() + waits_ms / 1000 - first[0] >= 29.5
        assert await page.get_attribute("#state", "data-state") == "retrying"
        banner = await page.inner_text("#banner")
        assert banner.startswith("Connection lost; trying again in")
        await shot(page, "retrying-390")
        await context.close()
    finally:
        await fake.close()


async def test_relative_times_count_down_in_the_pages_language(camera: Camera) -> None:
    fake = FakeDiscord(players=(), channel_names=("dice-games",))
    page_server = Page(fake)
    await fake.start(setup=page_server.setup)
    try:
        soon = int(time.time()) + 61
        async with aiohttp.ClientSession() as http:
            await post(fake, http, {"content": f"Zug endet <t:{soon}:R>"})
        context = await camera.browser.new_context(viewport={"width": 390, "height": 844})
        page = await context.new_page()
        await page.goto(f"{fake.base_url}/?as=Anne&lang=de")
        span = page.locator("#chat .dc-timestamp")
        assert await span.inner_text() in ("in 1 Minute", "in 59 Sekunden")
        await page.wait_for_function(  # and a few seconds later, as the page counts
            "() => /^in 5\\d Sekunden$/.test(document.querySelector('#chat .dc-timestamp')"
            ".textContent)",
            timeout=10_000,
        )
        await context.close()
    finally:
        await fake.close()
