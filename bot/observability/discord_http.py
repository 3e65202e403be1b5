"""Count Discord's REST error responses by status code, from aiohttp's request tracing.

Why a trace and not an error handler: most failed REST calls never reach ``on_error`` or
the command tree's handler (code that catches its own ``HTTPException``, as
``DiceBot.display_name`` does), and the ones discord.py retries (429, 502) raise
nothing at all.
Every REST call, including interaction callbacks and webhook follow-ups, goes through the
one aiohttp session of ``client.http``, and discord.py accepts a ``TraceConfig`` for that
session (``Client(http_trace=...)``), so one callback sees every response without
patching or subclassing discord.py.
"""

from __future__ import annotations

from types import SimpleNamespace

import aiohttp

from bot.observability.metrics import Metrics

__all__ = ["discord_error_trace"]

FIRST_ERROR_STATUS = 400


def discord_error_trace(metrics: Metrics) -> aiohttp.TraceConfig:
    """A trace config that calls ``metrics.discord_error(status)`` for each 4xx/5xx response."""

    async def on_request_end(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        if status >= FIRST_ERROR_STATUS:
            metrics.discord_error(status)

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    return trace
