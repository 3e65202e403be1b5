"""`make play`'s table without a bot or a browser: the settings that switch the bot's
table on, the one line when the page is not built, and the chat page opening a launch
(the App Launcher with Discord's own handler launches at once)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from bot.devserver import play
from bot.devserver.page import Page
from bot.devserver.standin import FakeDiscord
from bot.devserver.standin.proxy import ActivityProxy
from tests.devserver.test_page import frame


async def test_without_the_built_page_there_is_no_table_and_one_line_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fake = FakeDiscord(activities=True)
    monkeypatch.setattr(play, "built_page", lambda: None)
    assert play.table_proxy(fake) is None
    printed = capsys.readouterr().out.splitlines()
    assert printed == [play.NO_TABLE] and "make page" in printed[0]

    # A developer's own table settings do not reach the local bot.
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "the developer's real secret")
    monkeypatch.setenv("DISCORD_PUBLIC_KEY", "ab" * 32)
    env = play.BotChild(fake, tmp_path).env()
    assert "DISCORD_CLIENT_SECRET" not in env and "DISCORD_PUBLIC_KEY" not in env


async def test_with_the_page_the_bot_gets_the_stand_ins_secret_address_and_key(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = FakeDiscord(activities=True)
    monkeypatch.setattr(play, "built_page", lambda: tmp_path)
    proxy = play.table_proxy(fake)
    assert proxy is not None and proxy.sign
    host, port = proxy.upstream.split(":")
    assert host == "127.0.0.1" and int(port) > 0
    env = play.BotChild(fake, tmp_path, play.table_settings(fake, proxy.upstream)).env()
    assert env["DISCORD_CLIENT_SECRET"] == fake.client_secret
    assert env["ACTIVITY_ADDR"] == proxy.upstream
    assert env["DISCORD_PUBLIC_KEY"] == fake.public_key
    assert env["DISCORD_API_BASE"] == fake.api_base  # where the token route is too


def test_the_table_servers_address_can_be_chosen_and_a_bad_one_is_one_error_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = play.parse_args(["--activity-addr", "127.0.0.1:9000"])
    monkeypatch.setattr(play, "built_page", lambda: tmp_path)
    proxy = play.table_proxy(FakeDiscord(activities=True), args.activity_addr)
    assert proxy is not None and proxy.upstream == "127.0.0.1:9000"
    with pytest.raises(SystemExit) as exit_:
        play.parse_args(["--activity-addr", "9000"])
    assert exit_.value.code == 2
    [line] = [x for x in capsys.readouterr().err.splitlines() if "error:" in x]
    assert "--activity-addr must be host:port" in line


@pytest.fixture
async def chat() -> AsyncIterator[tuple[FakeDiscord, ActivityProxy, aiohttp.ClientSession]]:
    fake = FakeDiscord(players=(), channel_names=("dice-games",), activities=True)
    proxy = ActivityProxy(fake, "127.0.0.1:9", sign=True)  # no table server: not needed
    page = Page(fake, proxy)
    await fake.start(setup=page.setup)
    proxy.chat_port = fake.port
    await proxy.start()
    async with aiohttp.ClientSession() as http:
        yield fake, proxy, http
    await page.close()
    await proxy.close()
    await fake.close()


async def test_the_app_launcher_opens_the_persons_launch_in_the_tab(chat: Any) -> None:
    fake, proxy, http = chat
    async with http.get(fake.base_url + "/") as answer:
        assert 'data-table="on"' in await answer.text()
    ws = await http.ws_connect(f"{fake.base_url}/play/ws")
    await ws.send_json({"op": "hello", "name": "Anne"})
    await frame(ws, "welcome")
    # The portal's own Entry Point (Discord launches; the bot hears nothing).
    await ws.send_json({"op": "launcher", "seq": 1})
    launch = await frame(ws, "launch")
    url = urlsplit(launch["url"])
    assert f"{url.scheme}://{url.netloc}" == proxy.url
    assert url.path == "/.discord/client.html"
    ticket = parse_qs(url.query)["ticket"][0]
    anne = fake.user("anne")
    assert proxy.launches[ticket].user_id == anne.id
    instance = fake.activity_instances.in_channel(fake.channel.id)
    assert instance is not None and instance.users == [anne.id]
    await ws.close()


async def test_without_the_table_the_launcher_is_hidden_and_refused() -> None:
    fake = FakeDiscord(players=(), channel_names=("dice-games",), activities=True)
    page = Page(fake)
    await fake.start(setup=page.setup)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(fake.base_url + "/") as answer:
                assert 'data-table="off"' in await answer.text()
            ws = await http.ws_connect(f"{fake.base_url}/play/ws")
            await ws.send_json({"op": "hello", "name": "Anne"})
            await frame(ws, "welcome")
            await ws.send_json({"op": "launcher", "seq": 1})
            refusal = await frame(ws, "refusal")
            assert "make page" in refusal["text"] and refusal["seq"] == 1
            await ws.close()
    finally:
        await page.close()
        await fake.close()
