"""How fast a tab may act, as fast as a person clicks: a token bucket per tab (a few
actions a second, a short burst beyond), an action over it refused with "slow down";
a tab that keeps sending far beyond it (a script, not a person) is closed."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from enum import Enum

RATE = 4.0  # actions a second, sustained
BURST = 8  # actions at once after a pause
FLOOD_REFUSALS = 50  # refusals within FLOOD_SECONDS close the tab
FLOOD_SECONDS = 10.0


class Verdict(Enum):
    GO = "go"
    SLOW_DOWN = "slow_down"  # refused, nothing done
    FLOOD = "flood"  # closed


class TokenBucket:
    """`rate` tokens a second up to `burst`; `take()` spends one if there is one."""

    def __init__(
        self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._tokens = float(burst)
        self._at = clock()

    def take(self) -> bool:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class Pace:
    """One tab's pace: each action `check()`ed as it arrives."""

    def __init__(
        self,
        rate: float = RATE,
        burst: int = BURST,
        *,
        flood_refusals: int = FLOOD_REFUSALS,
        flood_seconds: float = FLOOD_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bucket = TokenBucket(rate, burst, clock=clock)
        self.flood_refusals = flood_refusals
        self.flood_seconds = flood_seconds
        self.clock = clock
        self._refused: deque[float] = deque(maxlen=flood_refusals)

    def check(self) -> Verdict:
        if self.bucket.take():
            return Verdict.GO
        now = self.clock()
        self._refused.append(now)
        full = len(self._refused) == self.flood_refusals
        if full and now - self._refused[0] <= self.flood_seconds:
            return Verdict.FLOOD
        return Verdict.SLOW_DOWN
