"""The stand-in's Discord client page (the iframe's parent, served by the Activity proxy)
in real Chromium with the real Embedded App SDK: the built table page signs in through
it (handshake, the consent dialog, AUTHORIZE, the code traded at the stand-in by the
table's server, AUTHENTICATE, the locale) over the proxy, signed and under its CSP; and
the SDK itself, bundled from the page's package by the page's esbuild, drives the
commands the page does not use yet (participants and their updates, errors).

The table's server is tests/table/page/fake_table.py's, trading the code at the
stand-in's OAuth2 route as the real one does."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Frame, Page, expect

from bot.devserver.standin import FakeDiscord
from bot.devserver.standin.proxy import ActivityProxy
from bot.table.assets import HOW_TO_BUILD, built_page
from tests.devserver.standin_table import StandInTable
from tests.devserver.test_activity_proxy import verified
from tests.table.page import samples
from tests.table.page.driver import WATCH

PAGE_DIR = Path(__file__).resolve().parents[2] / "bot" / "table" / "page"
ESBUILD = PAGE_DIR / "node_modules" / ".bin" / "esbuild"
PROBE = Path(__file__).parent / "sdk_probe"
BUDGET = 60.0


@dataclass
class StandIn:
    fake: FakeDiscord
    table: StandInTable
    proxy: ActivityProxy


async def started(dist: Path) -> StandIn:
    fake = await FakeDiscord(activities=True).start()
    table = StandInTable(dist, fake.api_base, fake.client_secret)
    await table.start()
    proxy = await ActivityProxy(fake, table.url.removeprefix("http://"), sign=True).start()
    return StandIn(fake, table, proxy)


async def stopped(stand_in: StandIn) -> None:
    await stand_in.proxy.close()
    await stand_in.table.stop()
    await stand_in.fake.close()


@pytest.fixture
async def stand_in() -> AsyncIterator[StandIn]:
    dist = built_page()
    if dist is None:
        pytest.fail(HOW_TO_BUILD, pytrace=False)
    found = await started(dist)
    yield found
    await stopped(found)


@pytest.fixture
async def probed(tmp_path: Path) -> AsyncIterator[StandIn]:
    """The stand-in with the SDK probe as the table's page."""
    if not ESBUILD.exists():
        pytest.fail(HOW_TO_BUILD, pytrace=False)
    (tmp_path / "assets").mkdir()
    shutil.copy(PROBE / "index.html", tmp_path / "index.html")
    build = subprocess.run(
        [str(ESBUILD), str(PROBE / "probe.js"), "--bundle", "--format=esm", "--target=es2022",
         f"--outfile={tmp_path / 'assets' / 'probe.js'}", "--log-level=warning"],
        env={**os.environ, "NODE_PATH": str(PAGE_DIR / "node_modules")},
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    found = await started(tmp_path)
    yield found
    await stopped(found)


async def open_client(
    browser: Browser, stand_in: StandIn, user: str, platform: str = "desktop"
) -> tuple[BrowserContext, Page]:
    """`user`'s launch in the channel: Discord's client page on the proxy's origin."""
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    await context.add_init_script(WATCH)
    origin = stand_in.proxy.url
    await context.route(lambda url: not url.startswith(origin), lambda route: route.abort())
    page = await context.new_page()
    url = stand_in.proxy.client_url(user, stand_in.fake.channel.id, platform=platform)
    await page.goto(url)
    return context, page


def table_frame(page: Page) -> Frame:
    [frame] = page.main_frame.child_frames
    return frame


async def sent_commands(page: Page) -> list[str]:
    seen: list[list[Any]] = await page.evaluate("window.discordSeen")
    return [payload["cmd"] for opcode, payload in seen if opcode == 1]


async def test_the_table_signs_in_through_discords_client_and_the_proxy(
    browser: Browser, stand_in: StandIn
) -> None:
    fake, table = stand_in.fake, stand_in.table
    fake.user("alice").locale = "de"
    table.state = samples.state("pickomino_lobby", "de", version=7)
    async with asyncio.timeout(BUDGET):
        context, page = await open_client(browser, stand_in, "alice")
        consent = page.get_by_role("dialog")
        await expect(consent).to_contain_text("Dice Games möchte auf dein Discord-Konto zugreifen")
        await consent.get_by_role("button", name="Autorisieren").click()
        hello = await table.frame("hello")

        instance = fake.activity_instances.in_channel(fake.channel.id)
        assert instance is not None and instance.users == [fake.user("alice").id]
        assert hello["instance"] == instance.instance_id and hello["locale"] == "de"
        assert table.tokens[hello["token"]] == str(fake.user("alice").id)
        signed_in = ["AUTHORIZE", "AUTHENTICATE", "USER_SETTINGS_GET_LOCALE"]
        assert await sent_commands(page) == signed_in
        lobby = page.frame_locator("iframe")
        await expect(lobby.get_by_text("Pickomino-Lobby", exact=False).first).to_be_visible()
        # The table's server heard each request through the proxy, signed for Alice.
        for headers in table.signed:
            assert verified(fake.public_key, headers)["user_id"] == str(fake.user("alice").id)
        assert len(table.signed) == 2  # api/token and the socket's upgrade
        frame = table_frame(page)
        assert frame.url.startswith(f"{stand_in.proxy.url}/.proxy/t-")
        assert await frame.evaluate("window.__problems") == []
        assert await page.evaluate("window.__problems") == []

        # Opened again (a reload): Discord asks no more; a new instance, as she was alone.
        await page.reload()
        again = await table.frame("hello")
        assert again["instance"] != hello["instance"]
        assert fake.activity_instance(again["instance"]) is not None
        assert await page.get_by_role("dialog").count() == 0
        await context.close()
    async with asyncio.timeout(5):  # her page closed: she left, the instance ended
        while fake.activity_instance(again["instance"]) is not None:
            await asyncio.sleep(0.02)


async def test_a_declined_consent_is_asked_again_when_the_page_asks_again(
    browser: Browser, stand_in: StandIn
) -> None:
    table = stand_in.table
    async with asyncio.timeout(BUDGET):
        context, page = await open_client(browser, stand_in, "bob")
        await page.get_by_role("dialog").get_by_role("button", name="Cancel").click()
        # The page says why and offers to sign in again; Discord asks again.
        again = page.frame_locator("iframe").get_by_role("button", name="Continue with Discord")
        await again.click()
        await page.get_by_role("dialog").get_by_role("button", name="Authorize").click()
        hello = await table.frame("hello")
        assert table.tokens[hello["token"]] == str(stand_in.fake.user("bob").id)
        commands = await sent_commands(page)
        assert commands[:3] == ["AUTHORIZE", "AUTHORIZE", "AUTHENTICATE"]
        await context.close()


async def call(frame: Frame, command: str, args: Any = None) -> Any:
    return await frame.evaluate("([name, args]) => window.probe.call(name, args)", [command, args])


async def test_the_real_sdk_reads_every_frame_discords_client_sends(
    browser: Browser, probed: StandIn
) -> None:
    fake = probed.fake
    async with asyncio.timeout(BUDGET):
        context, page = await open_client(browser, probed, "bob", platform="mobile")
        await page.wait_for_function("() => window.discordSeen.length > 0")
        frame = table_frame(page)
        await frame.wait_for_function("() => window.probe && window.probe.ready")
        instance = fake.activity_instances.in_channel(fake.channel.id)
        assert instance is not None
        assert await frame.evaluate("window.probe.platform") == "mobile"
        assert await frame.evaluate("window.probe.instanceId") == instance.instance_id

        refused = await call(frame, "userSettingsGetLocale")
        assert refused["error"]["code"] == 4006, "identify is needed first"
        unserved = await call(frame, "openExternalLink", {"url": "https://example.com"})
        assert unserved["error"]["code"] == 4002
        listed = await call(frame, "getInstanceConnectedParticipants")
        assert [p["username"] for p in listed["ok"]["participants"]] == ["bob"]

        await frame.evaluate("window.probe.subscribe()")
        carol = fake.launch("carol")
        await frame.wait_for_function("() => window.probe.updates.length === 1")
        fake.leave_activity("carol", carol)
        await frame.wait_for_function("() => window.probe.updates.length === 2")
        updates = await frame.evaluate("window.probe.updates")
        assert [[p["username"] for p in u["participants"]] for u in updates] == [
            ["bob", "carol"],
            ["bob"],
        ]

        # The instance ends: Discord closes the Activity.
        fake.end_activity(instance.instance_id)
        await expect(page.get_by_role("status")).to_have_text("The activity has ended.")
        assert page.main_frame.child_frames == []
        assert await page.evaluate("window.__problems") == []
        await context.close()
