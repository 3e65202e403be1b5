"""The bot token's requests, paced under Discord's global rate limit.

Discord lets a bot make 50 requests a second with its token, every shard of it
together ("All bots can make up to 50 requests per second to our API", rate-limits.mdx);
interaction callbacks and the webhook requests made with an interaction's token are
not bound by it ("Interaction endpoints are not bound to the bot's Global Rate Limit").
discord.py waits only once Discord has answered 429, and every 429 counts toward the
ban for invalid requests (10,000 in 10 minutes, the same page).

That limit is met after a restart: the interaction tokens went with the old process,
so the live messages' edits (computer players' moves, turn timers), the turn pings and
the repairs all go with the bot token at once. At 1,000 games a restarted process met
136 global 429s in its first 11 s (`benchmarks/bench_soak.py --kill-process-at`). So
each process starts its bot-token requests at no more than its share of 45 a second (a
tenth below Discord's 50, or below DISCORD_GLOBAL_RATE for a bot Discord gave more):
the shards it runs, of SHARD_COUNT.

discord.py sends interaction callbacks and interaction-token webhooks through its
webhook adapter, not `HTTPClient.request`; pacing that one method paces exactly the
requests the global limit counts.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

SHARE_USED = 0.9  # a tenth kept back: the clocks of Discord and of the bot differ
BURST = 10  # requests that may start at once after a quiet spell
EPSILON = 1e-6  # seconds


class Pace:
    """Starts at most `rate` a second, in the order asked for, after a burst of
    `burst` at once."""

    def __init__(
        self,
        rate: float,
        burst: int = BURST,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.interval = 1.0 / rate
        self.burst = burst
        self.clock = clock
        self.sleep = sleep
        self._next = float("-inf")

    def take(self) -> float:
        """The next start, taken: how long to wait for it (0: now)."""
        now = self.clock()
        start = max(self._next, now - (self.burst - 1) * self.interval)
        self._next = start + self.interval
        delay = start - now
        return delay if delay > EPSILON else 0.0  # not the float error of the sums

    async def wait(self) -> None:
        delay = self.take()
        if delay > 0:
            await self.sleep(delay)


def bot_token_share(shards: tuple[int, ...] | None, shard_count: int | None) -> float:
    """This process's share of the global limit: the shards it runs, of all of them."""
    if shards is None or not shard_count:
        return 1.0
    return len(shards) / shard_count


def pace_bot_requests(http: discord.http.HTTPClient, per_second: float) -> Pace:
    """Make every request of `http` (the bot token's) wait for its start: at most
    `per_second` (this process's share of the global limit), less a tenth."""
    pace = Pace(per_second * SHARE_USED)
    request = http.request

    async def paced(route: discord.http.Route, **kwargs: Any) -> Any:
        await pace.wait()
        return await request(route, **kwargs)

    http.request = paced  # type: ignore[method-assign]
    return pace
