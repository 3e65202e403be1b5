"""Whether a request with the bot's token would wait for a rate limit if sent now.

Discord asks clients to read its headers (X-RateLimit-Remaining, -Reset-After, -Bucket)
so as not to hit a limit; discord.py does, and holds a request whose bucket is empty
until the bucket resets (up to the client's max_ratelimit_timeout, 30 s). A request
that also empties its bucket is held too, after its answer, until the reset. A message
worth sending only now (a turn ping, a reminder) asks first and is skipped instead of
being held: it would arrive late, and it would hold up the channel's next pings.

discord.py shows its buckets through no public name, so this reads those of its
HTTPClient, keyed as HTTPClient.request keys them. Where that changes, nothing is known
to wait, and the request goes as it did before.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from discord.http import Route


def send_route(channel_id: int) -> Route:
    """The route of a new message in the channel (discord.py's own for `send`)."""
    return Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)


def delete_route(channel_id: int, message_id: int) -> Route:
    """The route of a message's deletion (discord.py's own for `delete`)."""
    return Route(
        "DELETE",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=channel_id,
        message_id=message_id,
    )


def wait_before(http: Any, route: Route) -> float:
    """Seconds `route` would be held by discord.py's rate limits if sent now (0: none;
    math.inf while the global limit is hit, whose end discord.py does not keep)."""
    global_over = getattr(http, "_global_over", None)
    if isinstance(global_over, asyncio.Event) and not global_over.is_set():
        return math.inf
    hashes = getattr(http, "_bucket_hashes", None)
    buckets = getattr(http, "_buckets", None)
    if not isinstance(hashes, dict) or not isinstance(buckets, dict):
        return 0.0
    bucket_hash = hashes.get(route.key)
    bucket = buckets.get(f"{bucket_hash or route.key}:{route.major_parameters}")
    expires = getattr(bucket, "expires", None)
    if bucket is None or not isinstance(expires, float):
        return 0.0  # no answer on this route yet, so no limit known
    reset_in = expires - asyncio.get_running_loop().time()
    if reset_in <= 0:
        return 0.0  # the window is over: discord.py starts a new one
    waiting = getattr(bucket, "_pending_requests", ())
    remaining = getattr(bucket, "remaining", 1)
    # 0 left: held before it goes; 1 left: it empties the bucket, held after its answer.
    if waiting or remaining <= 1:
        return reset_in
    return 0.0
