"""The table's server as Discord's proxy reaches it: the real bot (DiceBot, in this
process) logged in to the Discord stand-in, which is also the OAuth2 side (codes, access
tokens, /users/@me) and the activity instances; a test is a tab, an aiohttp client
that signs in as the page does (a code traded at api/token) and speaks the socket."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app.client import DiceBot
from bot.config import Settings
from bot.devserver.standin import FakeDiscord, FakeUser, running_client
from tests.discord_harness import free_port

WAIT = 10.0  # for what a test waits on before it fails (not a speed under test)
SOON = 1.0  # the bound: a change reaches every tab within a second
Frame = dict[str, Any]


class TabClient:
    """One tab's socket, as the page uses it: every frame it was sent is kept."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, user: FakeUser) -> None:
        self.ws = ws
        self.user = user
        self.frames: list[Frame] = []
        self.state: Frame | None = None  # the newest state frame
        # The code of the server's close frame, as a browser reports it (aiohttp's own
        # close_code says 1006 when its answer finds the connection already gone).
        self.close_code: int | None = None
        self._numbers = itertools.count(1)

    async def receive(self, timeout: float = WAIT) -> Frame | None:
        """The next frame; None once the socket is closed (`close_code` says how)."""
        message = await self.ws.receive(timeout=timeout)
        if message.type is not aiohttp.WSMsgType.TEXT:
            if self.close_code is None:
                closing = message.type is aiohttp.WSMsgType.CLOSE
                self.close_code = message.data if closing else self.ws.close_code
            return None
        frame: Frame = json.loads(message.data)
        self.frames.append(frame)
        if frame["t"] == "state":
            self.state = frame
        return frame

    async def until(self, found: Callable[[Frame], bool], timeout: float = WAIT) -> Frame:
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.receive(timeout)
                if frame is None:
                    raise AssertionError(f"closed {self.close_code}; got {self.frames}")
                if found(frame):
                    return frame

    async def next_state(
        self, found: Callable[[Frame], bool] = lambda state: True, timeout: float = WAIT
    ) -> Frame:
        return await self.until(lambda f: f["t"] == "state" and found(f), timeout)

    async def sees(self, found: Callable[[Frame], bool], timeout: float = WAIT) -> Frame:
        """The state shown if `found` holds for it, else the next state it holds for."""
        if self.state is not None and found(self.state):
            return self.state
        return await self.next_state(found, timeout)

    async def act(
        self,
        action: str,
        arg: str = "",
        *,
        session: int | str | None = "shown",
        version: int | None = None,
    ) -> Frame:
        """Send an act on the state shown (or the session and version given); its answer."""
        n = await self.send_act(action, arg, session=session, version=version)
        return await self.until(lambda f: f.get("n") == n and f["t"] != "state")

    async def send_act(
        self,
        action: str,
        arg: str = "",
        *,
        session: int | str | None = "shown",
        version: int | None = None,
    ) -> int:
        n = next(self._numbers)
        shown = self.state or {"session": None, "version": 0}
        frame: Frame = {
            "t": "act",
            "n": n,
            "session": shown["session"] if session == "shown" else session,
            "version": shown["version"] if version is None else version,
            "action": action,
        }
        if arg:
            frame["arg"] = arg
        await self.ws.send_json(frame)
        return n

    async def closed(self, timeout: float = WAIT) -> int | None:
        """Until the server closes the socket: its close code."""
        async with asyncio.timeout(timeout):
            while await self.receive(timeout) is not None:
                pass
        return self.close_code

    def scene(self) -> Frame:
        assert self.state is not None
        scene: Frame = self.state["scene"]
        return scene

    def actions(self, action: str | None = None) -> list[Frame]:
        return [a for a in self.scene()["actions"] if action in (None, a["action"])]


class Table:
    """The stand-in, the bot with the table on, and an HTTP client at the table's URL."""

    def __init__(self, fake: FakeDiscord, bot: DiceBot, http: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.bot = bot
        self.http = http
        assert bot.table is not None
        self.url = f"http://127.0.0.1:{bot.table.port}"

    async def sign_in(self, user: FakeUser | str) -> str:
        """An access token as the page gets one: AUTHORIZE's code traded at api/token."""
        code = self.fake.mint_code(user)
        async with self.http.post(f"{self.url}/api/token", json={"code": code}) as answer:
            assert answer.status == 200, await answer.text()
            token: str = (await answer.json())["access_token"]
            return token

    async def connect(
        self,
        user: FakeUser | str,
        *,
        locale: str = "en-US",
        instance: str | None = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> TabClient:
        """A tab's socket with its hello sent: `user` launched the activity in the
        channel (unless `instance` is given) and signed in (unless `token` is)."""
        person = self.fake.user(user)
        instance = instance if instance is not None else self.fake.launch(person)
        token = token if token is not None else await self.sign_in(person)
        ws = await self.http.ws_connect(f"{self.url}/api/ws", headers=headers)
        hello = {"t": "hello", "v": 1, "token": token, "instance": instance, "locale": locale}
        await ws.send_json(hello)
        return TabClient(ws, person)

    async def tab(self, user: FakeUser | str, **options: Any) -> TabClient:
        """A tab welcomed and shown its channel's state."""
        tab = await self.connect(user, **options)
        await tab.until(lambda frame: frame["t"] == "welcome")
        await tab.next_state()
        return tab


@pytest.fixture
async def stand_in() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(activities=True) as fake:
        yield fake


@contextlib.asynccontextmanager
async def table_bot(fake: FakeDiscord, folder: Path, **settings: Any) -> AsyncIterator[Table]:
    """The bot, in this process, with the table on, against `fake`."""
    bot = DiceBot(
        Settings(
            discord_token=fake.token,  # type: ignore[arg-type]
            database_url=settings.pop("database_url", f"sqlite:///{folder / 'bot.db'}"),
            discord_api_base=fake.api_base,
            discord_gateway_url=fake.gateway_url,
            gateway_session_dir=None,
            cache_dir=folder / "cache",
            emoji_sync=False,
            bot_step_seconds=0.0,
            discord_client_secret=fake.client_secret,  # type: ignore[arg-type]
            activity_addr=f"127.0.0.1:{free_port()}",
            **settings,
        ),
        rng=random.Random(1),
    )
    async with running_client(fake, bot, timeout=WAIT), aiohttp.ClientSession() as http:
        await fake.wait_for_commands("pickomino", timeout=WAIT)
        yield Table(fake, bot, http)


@pytest.fixture
async def table(stand_in: FakeDiscord, tmp_path: Path) -> AsyncIterator[Table]:
    async with table_bot(stand_in, tmp_path) as running:
        yield running


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What the bot logged at ERROR or with a traceback."""
    return [
        f"{record.name}: {record.getMessage()}"
        for record in caplog.records
        if record.levelno >= logging.ERROR or record.exc_info
    ]


def live_message_at(fake: FakeDiscord, version: int) -> bool:
    """Whether the chat's live message offers buttons for `version` of the game."""
    return any(f":{version}:" in (b.custom_id or "") for b in fake.live_message().buttons)
