"""Discord's error responses are counted by status, through discord.py's own HTTP client."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot.app.client import DiceBot
from bot.config import Settings
from bot.connection.endpoints import apply_endpoint_overrides
from bot.observability.discord_http import count_on_session
from bot.observability.metrics import Metrics


def errors_by_status(metrics: Metrics) -> dict[str, float]:
    text = metrics.exposition().decode()
    return {
        sample.labels["status"]: sample.value
        for family in text_string_to_metric_families(text)
        if family.name == "bot_discord_http_errors"
        for sample in family.samples
        if sample.name.endswith("_total")
    }


@pytest.fixture
async def stand_in() -> AsyncIterator[str]:
    """A REST stand-in on loopback: /users/@me refuses the token, a channel is missing."""

    async def refuse(request: web.Request) -> web.Response:
        if request.headers.get("Authorization") == "Bot good-token":
            user = {"id": "9", "username": "dice", "discriminator": "0", "avatar": None}
            return web.json_response({**user, "bot": True})
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    async def missing(request: web.Request) -> web.Response:
        return web.json_response({"message": "Unknown Channel", "code": 10003}, status=404)

    async def found(request: web.Request) -> web.Response:
        return web.json_response({"id": "1", "type": 0, "name": "general", "guild_id": "2"})

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", refuse)
    app.router.add_get("/api/v10/channels/404", missing)
    app.router.add_get("/api/v10/channels/200", found)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    yield f"http://127.0.0.1:{port}/api/v10"
    await runner.cleanup()


async def test_the_bots_rest_errors_are_counted_by_status(stand_in: str, tmp_path) -> None:
    apply_endpoint_overrides(stand_in, None)  # conftest's discord_globals puts it back
    bot = DiceBot(Settings(database_url=f"sqlite:///{tmp_path}/bot.db"))
    try:
        with pytest.raises(discord.LoginFailure):
            await bot.login("not-a-token")
        await bot.http.get_channel(200)
        with pytest.raises(discord.NotFound):
            await bot.http.get_channel(404)
        with pytest.raises(discord.NotFound):
            await bot.http.get_channel(404)
    finally:
        await bot.close()
    assert errors_by_status(bot.metrics) == {"401": 1, "404": 2}


async def test_once_logged_in_the_errors_are_counted_without_a_trace(
    stand_in: str, tmp_path
) -> None:
    """The bot's setup swaps aiohttp's trace (costly on every request) for a response
    class that counts: each error still counted once, none twice."""
    apply_endpoint_overrides(stand_in, None)
    bot = DiceBot(Settings(database_url=f"sqlite:///{tmp_path}/bot.db"))
    try:
        await bot.http.static_login("good-token")
        assert count_on_session(bot.http, bot.metrics)
        session = bot.http._HTTPClient__session  # type: ignore[attr-defined]
        assert session._trace_configs == []
        await bot.http.get_channel(200)
        with pytest.raises(discord.NotFound):
            await bot.http.get_channel(404)
    finally:
        await bot.close()
    assert errors_by_status(bot.metrics) == {"404": 1}


async def test_without_the_session_the_trace_keeps_counting(tmp_path) -> None:
    bot = DiceBot(Settings(database_url=f"sqlite:///{tmp_path}/bot.db"))
    try:
        assert not count_on_session(bot.http, bot.metrics)  # not logged in: no session yet
    finally:
        await bot.close()
