"""One sleeping task per channel that wakes when its session's turn clock is due.

The wheel only keeps time; the session service decides, under the channel's lock and
from the stored deadline, whether there is anything to do when a task wakes. So a
timer that wakes late or twice does no harm, and deadlines survive restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

TASK_PREFIX = "turn-timer-"


class TimerWheel:
    def __init__(
        self,
        fire: Callable[[int], Awaitable[None]],
        clock: Callable[[], float] = time.time,
        lateness: Callable[[float], None] | None = None,
    ) -> None:
        self._fire = fire
        self._clock = clock
        # Told how many seconds after its instant each timer fired: the event loop's
        # delay, which grows when the process has more to do than its core allows, and
        # any hold.
        self._lateness = lateness
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._when: dict[int, float] = {}
        self._running = asyncio.Event()
        self._running.set()

    def set(self, key: int, when: float | None) -> None:
        """Wake for `key` at `when` (a clock() instant), replacing its earlier timer."""
        task = self._tasks.pop(key, None)
        self._when.pop(key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if when is None:
            return
        self._when[key] = when
        self._tasks[key] = asyncio.create_task(self._wait(key, when), name=f"{TASK_PREFIX}{key}")

    def hold(self) -> None:
        """Timers that come due wait for `release()` before they fire (a restarted bot
        answers the clicks its gateway replays first)."""
        self._running.clear()

    def release(self) -> None:
        self._running.set()

    def pending(self) -> dict[int, float]:
        """Armed timers: key -> instant."""
        return dict(self._when)

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        self._tasks.clear()
        self._when.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _wait(self, key: int, when: float) -> None:
        await asyncio.sleep(max(0.0, when - self._clock()))
        await self._running.wait()
        if self._lateness is not None:
            self._lateness(max(0.0, self._clock() - when))
        if self._tasks.get(key) is asyncio.current_task():
            del self._tasks[key]
            self._when.pop(key, None)
        await self._fire(key)
