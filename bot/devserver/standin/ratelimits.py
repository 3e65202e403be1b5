"""Discord's rate limits: a bucket per route and major parameter, the global limit of
bot-token requests, the headers Discord sends with every answer and its 429 answers, and
the invalid requests (401, 403, 429) Discord bans an address for.

Discord publishes no per-route figures: its headers tell a client what they are. The
ones here are conservative, so that a bot that lives with them lives with Discord's:
5 per 5 seconds per channel to create, edit or delete messages; 5 per 2 seconds per
interaction on the interaction webhook (follow-ups, edits and deletes of the responses:
"webhook rate limits", discord-api-docs#2701); every other route 50 per second. The
global limit is 50 requests per second per bot token, on every route the bot token
authenticates, and not on the interaction endpoints (the callback and the interaction
webhook), as Discord documents.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

Scope = Literal["user", "global", "shared"]


@dataclass(frozen=True)
class Limit:
    requests: int
    per: float  # seconds


GLOBAL_LIMIT = Limit(50, 1.0)
DEFAULT_LIMIT = Limit(50, 1.0)
CHANNEL_MESSAGES = Limit(5, 5.0)
INTERACTION_WEBHOOK = Limit(5, 2.0)
ROUTE_LIMITS: dict[tuple[str, str], Limit] = {
    ("POST", "/channels/{channel_id}/messages"): CHANNEL_MESSAGES,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): CHANNEL_MESSAGES,
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): CHANNEL_MESSAGES,
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): INTERACTION_WEBHOOK,
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): INTERACTION_WEBHOOK,
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): INTERACTION_WEBHOOK,
    ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): INTERACTION_WEBHOOK,
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): INTERACTION_WEBHOOK,
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): INTERACTION_WEBHOOK,
    ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): (
        INTERACTION_WEBHOOK
    ),
}
# Discord's major parameters: a route's bucket is kept apart for each value of these.
MAJOR_PARAMETERS = (
    ("channel_id",),
    ("guild_id",),
    ("webhook_id", "webhook_token"),
    ("interaction_id", "interaction_token"),
)
# Discord bans an address that makes this many invalid requests in this many seconds.
INVALID_REQUEST_BAN = (10_000, 600.0)
RATE_LIMITED_MESSAGE = "You are being rate limited."


def bucket_hash(name: str) -> str:
    """An opaque bucket id, as Discord's X-RateLimit-Bucket."""
    return hashlib.sha1(name.encode()).hexdigest()[:32]


def major_parameter(params: Mapping[str, str | None]) -> str:
    for names in MAJOR_PARAMETERS:
        values = [params.get(name) for name in names]
        if all(values):
            return ":".join(str(value) for value in values)
    return ""


@dataclass(frozen=True)
class RateLimited:
    """A 429: its body and headers, as Discord sends them."""

    retry_after: float
    scope: Scope
    headers: dict[str, str] = field(default_factory=dict)  # the bucket's, if any

    @property
    def is_global(self) -> bool:
        return self.scope == "global"

    def body(self) -> dict[str, object]:
        return {
            "message": RATE_LIMITED_MESSAGE,
            "retry_after": round(self.retry_after, 3),
            "global": self.is_global,
        }

    def all_headers(self) -> dict[str, str]:
        # discord.py takes a 429 without Via for Cloudflare's ban, not Discord's limit.
        headers = {
            **self.headers,
            "Retry-After": str(math.ceil(self.retry_after)),
            "X-RateLimit-Scope": self.scope,
            "Via": "1.1 google",
        }
        if self.is_global:
            headers["X-RateLimit-Global"] = "true"
        return headers


def rate_limited(
    retry_after: float, *, scope: Scope = "user", bucket: str = "injected", limit: int = 5
) -> RateLimited:
    """A 429 as a bucket of `limit` requests would answer it, its reset `retry_after`
    seconds away (for a test or a benchmark that injects one)."""
    headers = {}
    if scope != "global":
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash(bucket),
        }
    return RateLimited(retry_after, scope, headers)


@dataclass
class _Window:
    limit: Limit
    used: int = 0
    resets_at: float = 0.0

    def take(self, now: float) -> bool:
        if now >= self.resets_at:
            self.used = 0
            self.resets_at = now + self.limit.per
        if self.used >= self.limit.requests:
            return False
        self.used += 1
        return True


@dataclass(frozen=True)
class Verdict:
    """What the limits say of one request: the headers of its answer, and the 429 that is
    its answer if it is refused."""

    headers: dict[str, str]
    refused: RateLimited | None = None


class RateLimits:
    """The buckets of one bot token, and its global window."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        global_limit: Limit = GLOBAL_LIMIT,
    ) -> None:
        self._clock = clock
        self._wall = wall
        self._global = _Window(global_limit)
        self._buckets: dict[tuple[str, str], _Window] = {}

    def take(
        self,
        method: str,
        template: str,
        params: Mapping[str, str | None],
        *,
        global_limit: bool,
    ) -> Verdict:
        """Count a request to `template` (a route as Discord's docs write it) with these
        path parameters; `global_limit` when the bot token authenticates it."""
        now = self._clock()
        if global_limit and not self._global.take(now):
            return Verdict({}, RateLimited(self._global.resets_at - now, "global"))
        limit = ROUTE_LIMITS.get((method, template), DEFAULT_LIMIT)
        name = f"{method} {template}"
        key = (name, major_parameter(params))
        window = self._buckets.get(key)
        if window is None:
            window = self._buckets[key] = _Window(limit)
        allowed = window.take(now)
        reset_after = max(0.0, window.resets_at - now)
        headers = {
            "X-RateLimit-Limit": str(limit.requests),
            "X-RateLimit-Remaining": str(limit.requests - window.used),
            "X-RateLimit-Reset": f"{self._wall() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash(name),
        }
        if allowed:
            return Verdict(headers)
        return Verdict(headers, RateLimited(reset_after, "user", headers))


@dataclass(frozen=True)
class InvalidRequest:
    """An answer Discord counts toward its ban: a 401, a 403, or a 429 other than one of
    a shared limit."""

    at: float  # time.monotonic()
    method: str
    path: str
    status: int
    injected: bool = False  # made to happen by a test or a benchmark

    @staticmethod
    def counts(status: int, headers: Mapping[str, str]) -> bool:
        if status == 429:
            return headers.get("X-RateLimit-Scope") != "shared"
        return status in (401, 403)
