"""`make play` in a real browser with the table on (the page is built): the lobby's Open
the table is answered with LAUNCH_ACTIVITY and opens the launch in a panel beside the
chat (Discord's client page on the proxy's origin, framing the table with Discord's
query parameters), with a link to open it in a tab of its own; Close closes it, and
the App Launcher opens it again through the Entry Point."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.async_api import expect

from bot.preview.shoot import Camera
from bot.table.assets import HOW_TO_BUILD, built_page
from tests.devserver.play_driver import PlayServer, Tab

BUDGET = 120.0


async def test_open_the_table_opens_the_launch_beside_the_chat(
    camera: Camera, tmp_path: Path
) -> None:
    if built_page() is None:
        pytest.fail(HOW_TO_BUILD, pytrace=False)
    server = PlayServer(tmp_path / "data")
    try:
        async with asyncio.timeout(BUDGET):
            await server.start()
            anne = await Tab.open(camera.browser, server.url, "Anne", width=1280)
            page = anne.page
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
            table = page.frame_locator("#table-stage iframe").locator("iframe")
            await expect(table).to_have_count(1)
            table_url = urlsplit(await table.get_attribute("src") or "")
            assert table_url.path.startswith("/.proxy/t-") and table_url.path.endswith("/")
            query = parse_qs(table_url.query)
            assert query["instance_id"][0].startswith("i-")
            assert query["instance_id"][0].endswith(query["location_id"][0])
            assert query["location_id"][0] == f"gc-{query['guild_id'][0]}-{query['channel_id'][0]}"
            assert query["platform"] == ["desktop"] and query["frame_id"][0]
            assert (await anne.live()).text == lobby.text, "opening the table changed nothing"

            await page.get_by_role("button", name="Close the table").click()
            await expect(panel).to_be_hidden()
            await expect(page.locator("#table-stage iframe")).to_have_count(0)
            # The App Launcher: the bot's Entry Point, answered with LAUNCH_ACTIVITY too.
            await page.get_by_role("button", name="App Launcher").click()
            await expect(panel).to_be_visible()
            assert await page.locator("#table-stage iframe").get_attribute("src") == client_url
            assert not anne.errors, anne.errors
    finally:
        code = await server.stop()
    assert code == 0, server.log()
    assert not server.problems(), "\n".join(server.problems())
