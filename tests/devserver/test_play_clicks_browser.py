"""The page's click timing (window.playStats.clicks, what bench_play reports): a click is
answered when its message changes, not when someone else's message arrives meanwhile.

No bot: the stand-in and the page, a message posted over REST as the bot posts it, and
the click left waiting for a bot while the test posts and edits as the bot would.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.devserver.page import Page
from bot.devserver.standin import FakeDiscord
from bot.preview.shoot import Camera
from tests.devserver.test_page import BUTTON_ROW, post

BUDGET = 60.0


@pytest.fixture
async def table() -> AsyncIterator[tuple[FakeDiscord, aiohttp.ClientSession]]:
    fake = FakeDiscord(players=(), channel_names=("dice-games",))
    page = Page(fake)
    await fake.start(setup=page.setup)
    async with aiohttp.ClientSession() as http:
        yield fake, http
    await page.close()
    await fake.close()


async def edit(fake: FakeDiscord, http: aiohttp.ClientSession, message_id: int, text: str) -> None:
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages/{message_id}"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with http.patch(url, json={"content": text}, headers=headers) as response:
        assert response.status == 200, await response.text()


async def test_a_message_posted_while_a_click_waits_is_not_its_answer(
    camera: Camera, table: tuple[FakeDiscord, aiohttp.ClientSession]
) -> None:
    fake, http = table
    async with asyncio.timeout(BUDGET):
        game = await post(fake, http, {"content": "Anne's turn", "components": [BUTTON_ROW]})
        context = await camera.browser.new_context(viewport={"width": 390, "height": 844})
        page = await context.new_page()
        await page.goto(f"{fake.base_url}/?as=Anne")
        await page.click('#chat [data-custom-id="x"]')
        await page.wait_for_function("() => window.playStats.pending !== null")

        # A turn ping the rate limit held back comes now: a new message, not the answer.
        await post(fake, http, {"content": "@Anne, your turn"})
        await page.wait_for_function("() => document.body.innerText.includes('your turn')")
        await asyncio.sleep(0.2)  # the animation frame a wrong count would be pushed in
        assert await page.evaluate("() => window.playStats.clicks.length") == 0

        await edit(fake, http, game, "Bob's turn")  # the click's answer
        await page.wait_for_function("() => window.playStats.clicks.length === 1")
        assert await page.evaluate("() => window.playStats.pending") is None
        await context.close()
