"""Point discord.py at another Discord: a local stand-in for end-to-end tests.

discord.py has no setting for the API host or the gateway host, so this module moves the
few seams it reads them from. With both arguments ``None`` nothing is touched, so the bot
talks to the real Discord exactly as an unpatched discord.py would.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import discord.gateway
import discord.http
import yarl

__all__ = ["apply_endpoint_overrides"]


def apply_endpoint_overrides(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST calls to ``api_base`` and open the gateway at ``gateway_url``.

    ``api_base`` is the full versioned prefix, e.g. ``http://127.0.0.1:8080/api/v10``;
    ``gateway_url`` a websocket URL, e.g. ``ws://127.0.0.1:8080/gateway``. Either may be
    ``None`` (or empty) to keep discord.py's own value. Raises ``ValueError`` on a URL of the
    wrong scheme, so a misconfigured bot fails at start instead of calling discord.com.
    """
    if api_base:
        _check_scheme(api_base, ("http", "https"), "DISCORD_API_BASE")
        # Every REST call, including the interaction callbacks and webhook follow-ups made
        # by discord.webhook.async_, builds its URL as ``Route.BASE + path`` when the Route
        # is created, reading the class attribute each time.
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        _check_scheme(gateway_url, ("ws", "wss"), "DISCORD_GATEWAY_URL")
        # Client.connect() opens its first websocket at DEFAULT_GATEWAY (discord.py 2.7
        # no longer asks GET /gateway/bot for it) and falls back to it after an
        # INVALID_SESSION. Resumes go to READY's ``resume_gateway_url``, which the server we
        # point at sends itself, and AutoShardedClient takes the URL from GET /gateway/bot,
        # which goes through Route.BASE above, so neither needs a patch of its own.
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def _check_scheme(url: str, schemes: tuple[str, ...], what: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in schemes or not parts.netloc:
        raise ValueError(f"{what} must be a {' or '.join(schemes)} URL, got {url!r}")
