"""The optional HTTP endpoint: ``/healthz`` for probes, ``/metrics`` for Prometheus.

It runs on the bot's own event loop (aiohttp is already there through discord.py), so a
probe answered 200 also proves the loop is not stuck.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from aiohttp import web

from bot.config.address import parse_host_port
from bot.observability.metrics import CONTENT_TYPE, Metrics
from bot.storage.protocols import Database, DatabaseBusy, DatabaseUnavailable

__all__ = [
    "Check",
    "GatewayClient",
    "GatewaySocket",
    "HealthServer",
    "database_check",
    "gateway_check",
]

log = logging.getLogger(__name__)

# A check answers None when all is well, otherwise a short reason for the 503.
Check = Callable[[], Awaitable[str | None]]
DATABASE_TIMEOUT = 2.0  # seconds: well inside a probe's usual 3 to 5 s


class GatewaySocket(Protocol):
    @property
    def open(self) -> bool: ...


class GatewayClient(Protocol):
    """What the gateway check reads of a discord.py client."""

    @property
    def ws(self) -> GatewaySocket | None: ...

    def is_ready(self) -> bool: ...

    def is_closed(self) -> bool: ...


def gateway_check(client: GatewayClient) -> Check:
    """Healthy while the client is connected to the gateway (READY) and not closing."""

    async def check() -> str | None:
        if client.is_closed():
            return "closing"
        if not client.is_ready():
            return "not connected to the Discord gateway"
        # READY stays set across a dropped connection; the socket tells a reconnect.
        if client.ws is None or not client.ws.open:
            return "reconnecting to the Discord gateway"
        return None

    return check


def database_check(db: Database, timeout: float = DATABASE_TIMEOUT) -> Check:
    """Healthy while the database answers ``SELECT 1`` within ``timeout`` seconds."""

    async def check() -> str | None:
        try:
            row = await asyncio.wait_for(db.fetchone("SELECT 1"), timeout)
        except TimeoutError:
            return f"database did not answer within {timeout:g} s"
        except DatabaseBusy:
            return None  # it answers; the bot has more to do than connections
        except DatabaseUnavailable as error:  # refused, dropped, starting up: it says why
            return f"database unreachable: {error}"
        except Exception as error:  # any failure is the answer; the probe wants a reason
            return f"database error: {type(error).__name__}"
        return None if row is not None and row[0] == 1 else "database answered wrongly"

    return check


class HealthServer:
    """``/healthz`` and ``/metrics`` on ``addr`` until ``stop()``.

    ``addr`` is ``"host:port"`` as configured, or a ``(host, port)`` pair where port 0
    lets the system pick a free one (``port`` tells which after ``start()``).
    """

    def __init__(
        self, addr: str | tuple[str, int], checks: Sequence[Check], metrics: Metrics
    ) -> None:
        self.host, self.port = parse_host_port(addr) if isinstance(addr, str) else addr
        self._checks = tuple(checks)
        self._metrics = metrics
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics_page)
        # No access log: a probe every few seconds would drown the bot's own lines.
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        """Listen; an ``OSError`` (the port is taken, the host is not ours) leaves nothing open."""
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self.host, self.port).start()
        except OSError:
            await self._runner.cleanup()
            raise
        self.port = self._runner.addresses[0][1]  # the real port when 0 was asked for
        log.info("health and metrics on http://%s:%d (/healthz, /metrics)", self.host, self.port)

    async def stop(self) -> None:
        await self._runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        for check in self._checks:
            reason = await check()
            if reason is not None:
                return web.json_response({"status": "unavailable", "reason": reason}, status=503)
        return web.json_response({"status": "ok"})

    async def _metrics_page(self, request: web.Request) -> web.Response:
        response = web.Response(body=self._metrics.exposition())
        # Set as a header: aiohttp's content_type argument refuses the "; charset" part.
        response.headers["Content-Type"] = CONTENT_TYPE
        return response
