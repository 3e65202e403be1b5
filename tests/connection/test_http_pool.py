"""The bot's HTTP pool gives back the connections a burst opened
(bot.connection.http_pool)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from benchmarks.support import procfs
from bot.connection.http_pool import NewestFirstConnector
from tests.discord_harness import BotHarness

KEEPALIVE_SECONDS = 0.4
BURST = 12


class Server:
    """A local HTTP server; how many connections this process holds open to it."""

    def __init__(self) -> None:
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def open(self) -> int:
        return procfs.connections(os.getpid())[self.port]  # established, client side

    async def slow(self, request: web.Request) -> web.Response:
        await asyncio.sleep(float(request.query.get("wait", "0")))
        assert request.transport is not None
        return web.Response(text=str(request.transport.get_extra_info("peername")[1]))


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    counted = Server()
    app = web.Application()
    app.router.add_get("/", counted.slow)
    runner = web.AppRunner(app, keepalive_timeout=60)  # the server keeps them: the pool decides
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    counted.port = runner.addresses[0][1]
    try:
        yield counted
    finally:
        await runner.cleanup()


async def _burst_then_steady(connector: aiohttp.TCPConnector, server: Server) -> tuple[int, int]:
    """Open BURST connections at once, then ask one request at a time for three
    keep-alive periods; the connections open after the burst and at the end."""
    async with aiohttp.ClientSession(connector=connector) as session:

        async def get(wait: float) -> None:
            async with session.get(server.url, params={"wait": str(wait)}) as response:
                assert int(await response.text()) > 0

        await asyncio.gather(*(get(0.1) for _ in range(BURST)))
        after_burst = server.open
        loop = asyncio.get_running_loop()
        until = loop.time() + 3 * KEEPALIVE_SECONDS
        while loop.time() < until:
            await get(0)
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.05)  # the server sees the closes
        return after_burst, server.open


async def test_the_connections_a_burst_opened_close_once_the_traffic_falls(server: Server) -> None:
    connector = NewestFirstConnector(limit=0, keepalive_timeout=KEEPALIVE_SECONDS)
    after_burst, at_the_end = await _burst_then_steady(connector, server)
    assert after_burst == BURST
    # One request at a time needs one connection; aiohttp's cleanup runs every
    # keep-alive period, so one it has not reached yet may still be open.
    assert at_the_end <= 2, at_the_end


async def test_the_connection_given_back_last_is_the_one_used_next(server: Server) -> None:
    connector = NewestFirstConnector(limit=0, keepalive_timeout=60)
    async with aiohttp.ClientSession(connector=connector) as session:
        ports: list[int] = []

        async def get(wait: float) -> None:
            async with session.get(server.url, params={"wait": str(wait)}) as response:
                ports.append(int(await response.text()))  # the client's end, as served

        await asyncio.gather(get(0), get(0.2))  # two connections; the slower back last
        await get(0)
        await get(0)
        assert ports[0] != ports[1]
        assert ports[2:] == [ports[1], ports[1]], ports


async def test_the_bot_logs_in_with_the_newest_first_pool(tmp_path: Path) -> None:
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        connector = harness.bot.http.connector
        assert isinstance(connector, NewestFirstConnector)
        assert connector.limit == 0  # as discord.py's own: no cap on requests at once
