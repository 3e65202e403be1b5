"""The live message's own interaction callback: Discord's answers and discord.py's retries."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import Route

from bot.ui import callback

Answer = Callable[[web.Request], web.Response]


class Discord:
    """A loopback callback route answering from a script, recording what came."""

    def __init__(self) -> None:
        self.script: list[Answer] = []
        self.bodies: list[bytes] = []

    async def handle(self, request: web.Request) -> web.Response:
        self.bodies.append(await request.read())
        return self.script.pop(0)(request)


def discord_json(body: object, status: int, headers: dict[str, str] | None = None) -> web.Response:
    """JSON as Discord sends it: `application/json` exactly (discord.py parses no other)."""
    raw = json.dumps(body).encode()
    return web.Response(
        body=raw, status=status, headers={"Content-Type": "application/json", **(headers or {})}
    )


def no_content(request: web.Request) -> web.Response:
    return web.Response(status=204)


def rate_limited(via: bool, retry_after: object = 0.01) -> Answer:
    headers = {"Retry-After": "0.01", **({"Via": "1.1 google"} if via else {})}
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
    return lambda request: discord_json(body, 429, headers)


def error(status: int, code: int = 0) -> Answer:
    return lambda request: discord_json({"message": "no", "code": code}, status)


@pytest.fixture
async def discord_api() -> AsyncIterator[tuple[Discord, Route, aiohttp.ClientSession]]:
    fake = Discord()
    app = web.Application()
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", fake.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=7,
        webhook_token="tok",
    )
    route.url = f"http://127.0.0.1:{port}/api/v10/interactions/7/tok/callback"
    async with aiohttp.ClientSession() as session:
        yield fake, route, session
    await runner.cleanup()


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(callback, "retry_delay", lambda attempt: 0.01)


async def test_an_answer_is_sent_once_when_discord_takes_it(discord_api) -> None:
    fake, route, session = discord_api
    fake.script = [no_content]
    await callback.post(session, route, b'{"type": 7}')
    assert fake.bodies == [b'{"type": 7}']


async def test_discords_rate_limit_is_waited_out_and_the_answer_sent_again(discord_api) -> None:
    fake, route, session = discord_api
    fake.script = [rate_limited(via=True), no_content]
    await callback.post(session, route, b"{}")
    assert len(fake.bodies) == 2 and not fake.script


async def test_a_wait_past_the_answers_deadline_is_not_slept(discord_api) -> None:
    fake, route, session = discord_api
    fake.script = [rate_limited(via=True, retry_after=3 * 3600.0), no_content]  # hours
    with pytest.raises(discord.HTTPException) as raised:
        await callback.post(session, route, b"{}")
    assert raised.value.status == 429 and len(fake.bodies) == 1


async def test_a_retry_after_that_is_no_number_waits_a_second(discord_api, monkeypatch) -> None:
    fake, route, session = discord_api
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr(callback.asyncio, "sleep", sleep)
    fake.script = [rate_limited(via=True, retry_after="soon"), no_content]
    await callback.post(session, route, b"{}")
    assert slept == [1.0] and len(fake.bodies) == 2


async def test_a_429_not_from_discord_itself_is_not_retried(discord_api) -> None:
    fake, route, session = discord_api
    fake.script = [rate_limited(via=False), no_content]
    with pytest.raises(discord.HTTPException) as raised:
        await callback.post(session, route, b"{}")
    assert raised.value.status == 429 and len(fake.bodies) == 1


async def test_server_errors_are_retried_then_raised(discord_api) -> None:
    fake, route, session = discord_api
    fake.script = [error(503), error(502), no_content]
    await callback.post(session, route, b"{}")
    assert len(fake.bodies) == 3
    fake.script, fake.bodies = [error(500)] * 5, []
    with pytest.raises(discord.DiscordServerError):
        await callback.post(session, route, b"{}")
    assert len(fake.bodies) == 5


@pytest.mark.parametrize(
    ("status", "code", "raised"),
    [
        (404, 10062, discord.NotFound),
        (403, 50001, discord.Forbidden),
        (400, 40060, discord.HTTPException),
    ],
)
async def test_refusals_raise_what_discord_py_raises(discord_api, status, code, raised) -> None:
    fake, route, session = discord_api
    fake.script = [error(status, code)]
    with pytest.raises(raised) as caught:
        await callback.post(session, route, b"{}")
    assert caught.value.code == code and len(fake.bodies) == 1
