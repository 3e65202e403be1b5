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
# Timers that came due while the wheel was held (a restarted process, until the clicks
# replayed to it are answered) fire after the release at this pace, in the order they
# woke, not all at once. At 1,000 games a restarted process found about a hundred due at
# once (computer players' steps, turn timers): fired together, they took every pooled
# database connection for over 2 s, so clicks were refused as if the database were
# down, and their messages' edits, which after a restart go with the bot token (the
# interaction tokens were the old process's), hit Discord's global 50 a second.
HELD_FIRED_A_SECOND = 20.0


class TimerWheel:
    def __init__(
        self,
        fire: Callable[[int], Awaitable[None]],
        clock: Callable[[], float] = time.time,
        lateness: Callable[[float], None] | None = None,
        held_fired_a_second: float = HELD_FIRED_A_SECOND,
    ) -> None:
        self._fire = fire
        self._clock = clock
        # Told how many seconds after its instant each timer fired: the event loop's
        # delay, which grows when the process has more to do than its core allows, and
        # any hold.
        self._lateness = lateness
        self._tasks: dict[int, asyncio.Task[None]] = {}  # those still sleeping
        self._when: dict[int, float] = {}
        self._firing: set[asyncio.Task[None]] = set()  # woken, their work not done yet
        self._closed = False
        self._running = asyncio.Event()
        self._running.set()
        self._held_gap = 1.0 / held_fired_a_second
        self._next_held = 0.0  # the loop's time before which no held timer fires

    def set(self, key: int, when: float | None) -> None:
        """Wake for `key` at `when` (a clock() instant), replacing its earlier timer;
        nothing once closed."""
        task = self._tasks.pop(key, None)
        self._when.pop(key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if when is None or self._closed:
            return
        self._when[key] = when
        self._tasks[key] = asyncio.create_task(self._wait(key, when), name=f"{TASK_PREFIX}{key}")

    def hold(self) -> None:
        """Timers that come due wait for `release()` before they fire (a restarted bot
        answers the clicks its gateway replays first)."""
        self._running.clear()

    def release(self) -> None:
        self._running.set()

    async def _turn_of_the_held(self) -> None:
        """Wait for this held timer's turn: one every `_held_gap` seconds."""
        loop = asyncio.get_running_loop()
        turn = max(loop.time(), self._next_held)
        self._next_held = turn + self._held_gap
        await asyncio.sleep(turn - loop.time())

    def pending(self) -> dict[int, float]:
        """Armed timers: key -> instant."""
        return dict(self._when)

    async def close(self, timeout: float | None = None) -> None:
        """No timer fires or is armed from now on, and those firing now finish first
        (their change committed and shown), so that nothing they do comes after the
        database closes: a computer player's step re-arms the next one as it commits,
        and a failed timer its retry. Those not done in `timeout` seconds are cancelled.
        What was armed stays stored with its session: the next start arms it again."""
        self._closed = True
        sleeping = list(self._tasks.values())
        self._tasks.clear()
        self._when.clear()
        for task in sleeping:
            task.cancel()
        if self._firing:
            await asyncio.wait(set(self._firing), timeout=timeout)
        left = [*sleeping, *self._firing]
        for task in left:
            task.cancel()
        for task in left:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _wait(self, key: int, when: float) -> None:
        await asyncio.sleep(max(0.0, when - self._clock()))
        if not self._running.is_set():
            await self._running.wait()  # waiters wake in the order they came due
            await self._turn_of_the_held()
        if self._lateness is not None:
            self._lateness(max(0.0, self._clock() - when))
        task = asyncio.current_task()
        assert task is not None
        if self._tasks.get(key) is task:
            del self._tasks[key]
            self._when.pop(key, None)
        self._firing.add(task)
        try:
            await self._fire(key)
        finally:
            self._firing.discard(task)
