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

Requests made `urgent()` (someone waits on the answer: a person's action at the table
asks who is in its activity) start before the others waiting; those others (the live
messages' edits, the pings) show what is done already, and wait.

discord.py sends interaction callbacks and interaction-token webhooks through its
webhook adapter, not `HTTPClient.request`; pacing that one method paces exactly the
requests the global limit counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import Any

import discord

SHARE_USED = 0.9  # a tenth kept back: the clocks of Discord and of the bot differ
BURST = 10  # requests that may start at once after a quiet spell
EPSILON = 1e-6  # seconds
# Set by `urgent()`: the requests made within go first.
_URGENT: ContextVar[bool] = ContextVar("bot_token_request_urgent", default=False)


@contextlib.contextmanager
def urgent() -> Iterator[None]:
    """The bot token's requests made within start before the others waiting for a
    start: someone waits on their answer (a person's action asks who is where), while
    the others (a live message's edit) show what is already done."""
    token = _URGENT.set(True)
    try:
        yield
    finally:
        _URGENT.reset(token)


class Pace:
    """Starts at most `rate` a second, after a burst of `burst` at once. Those that
    wait start in the order they asked, the urgent ones before all the others."""

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
        self._next = float("-inf")  # the next start, unless a burst is due
        self._waiting: tuple[deque[asyncio.Future[None]], ...] = (deque(), deque())
        self._starter: asyncio.Task[None] | None = None

    def delay(self) -> float:
        """How long until the next start is free (0: now)."""
        now = self.clock()
        start = max(self._next, now - (self.burst - 1) * self.interval)
        delay = start - now
        return delay if delay > EPSILON else 0.0  # not the float error of the sums

    def waiting(self) -> int:
        """How many wait for their start."""
        return sum(1 for queue in self._waiting for waiter in queue if not waiter.done())

    async def wait(self, *, first: bool = False) -> None:
        """Until this request may start; `first` (urgent) before the others waiting."""
        if self._starter is None and self.delay() == 0:
            self._take()
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiting[0 if first else 1].append(waiter)
        if self._starter is None:
            self._starter = asyncio.create_task(self._start_each(), name="bot-token-pace")
        await waiter  # cancelled while waiting: skipped when its turn comes

    def _take(self) -> None:
        now = self.clock()
        self._next = max(self._next, now - (self.burst - 1) * self.interval) + self.interval

    async def _start_each(self) -> None:
        """Start those waiting, each when its start is free, until none waits."""
        try:
            while (waiter := self._next_waiter()) is not None:
                delay = self.delay()
                if delay > 0:
                    await self.sleep(delay)
                    continue  # one more urgent may have come meanwhile
                self._take()
                self._pop(waiter).set_result(None)
        finally:
            self._starter = None

    def _next_waiter(self) -> asyncio.Future[None] | None:
        """The first still waiting, the urgent ones first (those given up dropped)."""
        for queue in self._waiting:
            while queue and queue[0].done():
                queue.popleft()
            if queue:
                return queue[0]
        return None

    def _pop(self, waiter: asyncio.Future[None]) -> asyncio.Future[None]:
        for queue in self._waiting:
            if queue and queue[0] is waiter:
                queue.popleft()
        return waiter


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
        await pace.wait(first=_URGENT.get())
        return await request(route, **kwargs)

    http.request = paced  # type: ignore[method-assign]
    return pace
