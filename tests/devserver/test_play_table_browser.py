"""`make play` in a real browser with the table on (the page is built): the lobby's Open
the table is answered with LAUNCH_ACTIVITY and opens the launch in a panel beside the
chat (Discord's client page on the proxy's origin, framing the table with Discord's
query parameters), with a link to open it in a tab of its own; the table's page loads
through the proxy and signs in (the handshake, the consent, AUTHORIZE, the code traded
at the stand-in, AUTHENTICATE). Close closes it; the App Launcher opens it again through
the Entry Point, and so does the live message's Open the table once the game runs.

The table's server is the bot's own (make play gives it the stand-in's client secret,
ACTIVITY_ADDR and the proxy's public key): it serves the page only to requests the
proxy signed, and seats the person Discord says the token is."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.async_api import Frame, FrameLocator, Page, expect

from bot.preview.shoot import Camera
from bot.table.assets import HOW_TO_BUILD, built_page
from tests.devserver.play_driver import (
    START_TIMEOUT,
    STEP_TIMEOUT,
    PlayServer,
    Shown,
    Tab,
    click_live,
)
from tests.table.page.driver import WATCH

BUDGET = 150.0
SIGNED_IN = ["AUTHORIZE", "AUTHENTICATE", "USER_SETTINGS_GET_LOCALE"]


def client_frame(page: Page) -> Frame:
    """Discord's client page in the panel."""
    [frame] = [f for f in page.frames if "/.discord/client.html" in f.url]
    return frame


async def sent_commands(page: Page) -> list[str]:
    seen: list[list[Any]] = await client_frame(page).evaluate("window.discordSeen")
    return [payload["cmd"] for opcode, payload in seen if opcode == 1]


async def seated_as(table: FrameLocator) -> str:
    """The name the table's page marks as the person's own: who the bot's server was
    told the token is, by the stand-in's /users/@me."""
    you = table.locator(".player.you .name")
    await expect(you).to_have_count(1)
    return await you.inner_text()


async def problems(page: Page) -> list[str]:
    """CSP violations and errors in the client page and the table's page."""
    found: list[str] = []
    for frame in page.frames[1:]:
        found += await frame.evaluate("window.__problems || ['no watch']")
    return found


async def start_with_a_bot(anne: Tab) -> Shown:
    """Anne adds a computer player to her lobby and starts: the live message."""
    lobby = await click_live(anne, "addbot")
    shown = await anne.wait_for(lambda s: bool(s and s[-1].enabled("bot")), "the offer")
    await anne.click(shown[-1].id, shown[-1].enabled("bot")[0]["id"])
    await anne.wait_for(lambda s: bool(s) and s[-1].text != lobby.text, "the bot seated")
    await click_live(anne, "start")
    await anne.wait_for(
        lambda s: any(not m.ephemeral and m.enabled("move") and m.enabled("table") for m in s),
        "the game with Open the table",
    )
    return await anne.live()


# --real-discord: the bot's bodies (the Entry Point's sync, LAUNCH_ACTIVITY) checked
# against Discord's OpenAPI spec, with its latency and rate limits.
@pytest.mark.parametrize("real_discord", [False, True], ids=["ideal", "real-discord"])
async def test_open_the_table_signs_in_at_the_table_beside_the_chat(
    camera: Camera, tmp_path: Path, real_discord: bool
) -> None:
    if built_page() is None:
        pytest.fail(HOW_TO_BUILD, pytrace=False)
    server = PlayServer(tmp_path / "data", real_discord=real_discord)
    # Discord's latency and its 5 edits in 5 s a channel, on a machine whose other cores
    # run browser tests, can hold one click past the ideal run's step (seen: 20 s).
    step = START_TIMEOUT if real_discord else STEP_TIMEOUT
    failed = True
    try:
        async with asyncio.timeout(BUDGET + (START_TIMEOUT if real_discord else 0)):
            await server.start()
            anne = await Tab.open(camera.browser, server.url, "Anne", width=1280, step=step)
            page = anne.page
            await page.context.add_init_script(WATCH)  # the frames made from now on
            await anne.command("/pickomino start")
            shown = await anne.wait_for(
                lambda s: bool(s and s[-1].enabled("table")), "the lobby's Open the table"
            )
            lobby = shown[-1]
            assert lobby.enabled("table")[0]["label"] == "Open the table"
            await page.click(f'[data-custom-id="{lobby.button("table")["id"]}"]')

            panel = page.get_by_role("complementary", name="The table")
            await expect(panel).to_be_visible()
            client_url = await page.locator("#table-stage iframe").get_attribute("src")
            assert client_url is not None
            client = urlsplit(client_url)
            assert client.path == "/.discord/client.html" and client.netloc not in server.url
            assert await page.get_attribute("#table-tab", "href") == client_url
            # Discord's page made the table's frame with Discord's query parameters.
            discord = page.frame_locator("#table-stage iframe")
            framed = discord.locator("iframe")
            await expect(framed).to_have_count(1)
            table_url = urlsplit(await framed.get_attribute("src") or "")
            assert table_url.path.startswith("/.proxy/t-") and table_url.path.endswith("/")
            query = parse_qs(table_url.query)
            assert query["instance_id"][0].startswith("i-")
            assert query["instance_id"][0].endswith(query["location_id"][0])
            assert query["location_id"][0] == f"gc-{query['guild_id'][0]}-{query['channel_id'][0]}"
            assert query["platform"] == ["desktop"] and query["frame_id"][0]

            # The table's page signs in through Discord's page and the proxy, as Anne.
            await discord.get_by_role("dialog").get_by_role("button", name="Authorize").click()
            table = framed.content_frame
            lobby_title = table.get_by_text("Pickomino lobby", exact=False)
            await expect(lobby_title.first).to_be_visible()
            assert await seated_as(table) == "Anne"
            assert await sent_commands(page) == SIGNED_IN
            assert await problems(page) == []
            assert (await anne.live()).text == lobby.text, "opening the table changed nothing"

            await page.get_by_role("button", name="Close the table").click()
            await expect(panel).to_be_hidden()
            await expect(page.locator("#table-stage iframe")).to_have_count(0)
            # The App Launcher: the bot's Entry Point, answered with LAUNCH_ACTIVITY too;
            # the same launch, signed in again without asking.
            await page.get_by_role("button", name="App Launcher").click()
            await expect(panel).to_be_visible()
            assert await page.locator("#table-stage iframe").get_attribute("src") == client_url
            await expect(lobby_title.first).to_be_visible()
            assert await seated_as(table) == "Anne"
            assert await discord.get_by_role("dialog").count() == 0

            # The live message of the game has Open the table too.
            await page.get_by_role("button", name="Close the table").click()
            live = await start_with_a_bot(anne)
            await anne.click(live.id, live.button("table")["id"])
            await expect(panel).to_be_visible()
            # The table shows the game the live message shows.
            await expect(table.locator("main.table.phase-playing")).to_have_count(1)
            assert await seated_as(table) == "Anne"
            # Discord remembers the consent: the page signs in without a dialog.
            assert await sent_commands(page) == SIGNED_IN
            assert await discord.get_by_role("dialog").count() == 0
            assert await problems(page) == []
            assert not anne.errors, anne.errors
            failed = False
    finally:
        code = await server.stop_telling(failed)
    assert code == 0, server.log()
    assert not server.problems(), "\n".join(server.problems())


async def test_the_table_opens_in_make_play_reached_at_localhost(
    camera: Camera, tmp_path: Path
) -> None:
    """`make play` opened at http://localhost:<port>, not 127.0.0.1: the table's own
    server lets the chat page under that name frame it (its frame-ancestors follow the
    name the browser used, which the proxy passes on)."""
    if built_page() is None:
        pytest.fail(HOW_TO_BUILD, pytrace=False)
    server = PlayServer(tmp_path / "data")
    try:
        async with asyncio.timeout(BUDGET):
            await server.start()
            url = server.url.replace("127.0.0.1", "localhost")
            assert url != server.url
            anne = await Tab.open(camera.browser, url, "Anne", width=1280)
            page = anne.page
            await page.context.add_init_script(WATCH)
            await anne.command("/pickomino start")
            shown = await anne.wait_for(
                lambda s: bool(s and s[-1].enabled("table")), "the lobby's Open the table"
            )
            await page.click(f'[data-custom-id="{shown[-1].button("table")["id"]}"]')
            discord = page.frame_locator("#table-stage iframe")
            client_url = await page.locator("#table-stage iframe").get_attribute("src")
            assert client_url is not None and urlsplit(client_url).hostname == "localhost"
            await discord.get_by_role("dialog").get_by_role("button", name="Authorize").click()
            table = discord.locator("iframe").content_frame
            await expect(table.get_by_text("Pickomino lobby", exact=False).first).to_be_visible()
            assert await seated_as(table) == "Anne"
            assert await problems(page) == []
            assert not anne.errors, anne.errors
    finally:
        code = await server.stop()
    assert code == 0, server.log()
    assert not server.problems(), "\n".join(server.problems())
