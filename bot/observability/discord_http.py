"""Count Discord's REST error responses by status code.

Why at the HTTP layer and not in an error handler: most failed REST calls never reach
``on_error`` or the command tree's handler (code that catches its own
``HTTPException``, as ``DiceBot.display_name`` does), and the ones discord.py retries
(429, 502) raise nothing at all. Every REST call, including interaction callbacks and
webhook follow-ups, goes through the one aiohttp session of ``client.http``.

Two ways in, the cheap one preferred:

- ``count_on_session``: the session's responses become a ``ClientResponse`` subclass
  that counts its status as it is read: one comparison per response.
- ``discord_error_trace``: an aiohttp ``TraceConfig``, which discord.py accepts
  (``Client(http_trace=...)``) without patching anything. It is the fallback, because
  a trace makes aiohttp build and send half a dozen signals per request, whoever
  listens: a twentieth of the bot's CPU per click, measured by
  benchmarks/bench_clicks.py. The bot passes the trace at construction (it then counts
  the login's own errors) and swaps it for the subclass as soon as the session exists.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord

from bot.observability.metrics import Metrics

__all__ = ["count_on_session", "discord_error_trace"]

FIRST_ERROR_STATUS = 400
# Told the URL path of each response to a POST: an interaction's callback among them
# (bot.connection.inflight forgets the interaction then).
Answered = Callable[[str], None]


def _nobody(path: str) -> None:
    """No one to tell of POST responses."""


log = logging.getLogger(__name__)


def discord_error_trace(metrics: Metrics, answered: Answered = _nobody) -> aiohttp.TraceConfig:
    """A trace config that calls ``metrics.discord_error(status)`` for each 4xx/5xx
    response, and ``answered(path)`` for each response to a POST."""

    async def on_request_end(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        if status >= FIRST_ERROR_STATUS:
            metrics.discord_error(status)
        if params.method == "POST":
            answered(params.url.path)

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    return trace


def counting_response(
    metrics: Metrics, answered: Answered = _nobody
) -> type[aiohttp.ClientResponse]:
    """A ClientResponse that tells `metrics` of each 4xx/5xx status it reads, and
    `answered` of each response to a POST (by its URL's path)."""

    class CountingResponse(aiohttp.ClientResponse):
        async def start(self, connection: Any) -> aiohttp.ClientResponse:
            response = await super().start(connection)
            if self.status >= FIRST_ERROR_STATUS:
                metrics.discord_error(self.status)
            if self.method == "POST":
                answered(self.url.path)
            return response

    return CountingResponse


def count_on_session(
    http: discord.http.HTTPClient, metrics: Metrics, answered: Answered = _nobody
) -> bool:
    """Count errors with a response subclass instead of the trace, on the session
    discord.py opened at login; whether it could (a discord.py or aiohttp whose
    internals moved keeps the trace, which counts the same, only slower)."""
    session = getattr(http, "_HTTPClient__session", None)
    if not isinstance(session, aiohttp.ClientSession):
        log.warning("discord.py's HTTP session not found: Discord errors are counted by a trace")
        return False
    if not hasattr(session, "_response_class") or not hasattr(session, "_trace_configs"):
        log.warning("aiohttp's session internals moved: Discord errors are counted by a trace")
        return False
    session._response_class = counting_response(metrics, answered)
    session._trace_configs = []
    return True
