"""The health endpoint on loopback: /healthz 200 or 503 with a reason, /metrics, stopping."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp
import pytest

from bot.observability.health import HealthServer, database_check, gateway_check
from bot.observability.metrics import Metrics
from bot.storage import Database


@dataclass
class FakeSocket:
    open: bool = True


@dataclass
class FakeClient:
    """The part of a discord.py client the health endpoint reads."""

    ready: bool = True
    closed: bool = False
    ws: FakeSocket | None = field(default_factory=FakeSocket)
    latencies: list[tuple[int, float]] = field(default_factory=lambda: [(0, 0.042)])

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return self.closed


@pytest.fixture
async def db() -> AsyncIterator[Database]:
    database = await Database.open(":memory:")
    yield database
    await database.close()


@pytest.fixture
def client() -> FakeClient:
    return FakeClient()


@pytest.fixture
async def server(client: FakeClient, db: Database) -> AsyncIterator[HealthServer]:
    metrics = Metrics(latencies=lambda: client.latencies)
    health = HealthServer(("127.0.0.1", 0), [gateway_check(client), database_check(db)], metrics)
    await health.start()
    yield health
    await health.stop()


async def get(server: HealthServer, path: str) -> tuple[int, str, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}{path}") as response,
    ):
        return response.status, response.headers["Content-Type"], await response.text()


async def get_json(server: HealthServer, path: str) -> tuple[int, object]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}{path}") as response,
    ):
        return response.status, await response.json()


async def test_healthy_when_ready_open_and_the_database_answers(server: HealthServer) -> None:
    assert await get_json(server, "/healthz") == (200, {"status": "ok"})


@pytest.mark.parametrize(
    ("ready", "closed", "ws", "reason"),
    [
        (False, False, None, "not connected to the Discord gateway"),
        (True, False, FakeSocket(open=False), "reconnecting to the Discord gateway"),
        (True, False, None, "reconnecting to the Discord gateway"),
        (True, True, FakeSocket(), "closing"),
        (False, True, None, "closing"),
    ],
)
async def test_unavailable_until_ready_while_reconnecting_and_while_closing(
    server: HealthServer,
    client: FakeClient,
    ready: bool,
    closed: bool,
    ws: FakeSocket | None,
    reason: str,
) -> None:
    client.ready, client.closed, client.ws = ready, closed, ws
    assert await get_json(server, "/healthz") == (
        503,
        {"status": "unavailable", "reason": reason},
    )
    client.ready, client.closed, client.ws = True, False, FakeSocket()
    assert (await get_json(server, "/healthz"))[0] == 200


async def test_unavailable_when_the_database_is_closed(server: HealthServer, db: Database) -> None:
    await db.close()
    status, body = await get_json(server, "/healthz")
    assert status == 503
    assert isinstance(body, dict) and body["reason"].startswith("database error: ")


async def test_unavailable_when_the_database_does_not_answer_in_time(db: Database) -> None:
    class StuckDatabase:
        async def fetchone(self, sql: str) -> None:
            await asyncio.Event().wait()

    check = database_check(StuckDatabase(), timeout=0.01)  # type: ignore[arg-type]
    assert await check() == "database did not answer within 0.01 s"
    assert await database_check(db)() is None


async def test_metrics_are_served_in_prometheus_text_format(
    server: HealthServer, client: FakeClient
) -> None:
    client.latencies = [(0, 0.25), (1, 0.5)]
    status, content_type, text = await get(server, "/metrics")
    assert status == 200
    assert content_type.startswith("text/plain; version=")  # the text format, not OpenMetrics
    assert 'bot_gateway_latency_seconds{shard="0"} 0.25' in text.splitlines()
    assert 'bot_gateway_latency_seconds{shard="1"} 0.5' in text.splitlines()


async def test_unknown_paths_are_404(server: HealthServer) -> None:
    status, _, _ = await get(server, "/")
    assert status == 404


async def test_it_listens_on_loopback_and_stops_cleanly(db: Database) -> None:
    health = HealthServer(("127.0.0.1", 0), [database_check(db)], Metrics())
    await health.start()
    port = health.port
    assert port > 0
    assert health.host == "127.0.0.1"
    await health.stop()
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(health, "/healthz")
    # The port is free again: something else can listen on it.
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))


async def test_a_taken_port_is_an_os_error_that_leaves_nothing_open(db: Database) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        health = HealthServer(f"127.0.0.1:{port}", [database_check(db)], Metrics())
        with pytest.raises(OSError):
            await health.start()
    await health.stop()  # harmless after a failed start
