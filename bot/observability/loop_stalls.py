"""How long the event loop was held, and how much of it the garbage collector took.

Every click of a process waits on its one event loop, and Discord gives a click 3 s.
Whatever holds the loop (a long garbage collection, a synchronous call, a thread that
keeps the GIL) delays every click of the process at once, and the click histogram shows
only that they were slow, not why. In a soak of 1,000 games one process's clicks went
late for a few seconds together while the other's did not (docs/SCALING.md).

`watch_the_loop` wakes every `WAKE_EVERY_SECONDS` and measures how late it woke (the
loop's lag, `bot_event_loop_lag_seconds`); `GcPauses` times each collection through
`gc.callbacks`, in whatever thread it runs (a collection holds the GIL, so it holds the
loop too), and full ones go to `bot_gc_full_pause_seconds`. A lag of `STALL_SECONDS` or
more is logged as a warning, with the collector's share of it.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

WAKE_EVERY_SECONDS = 0.25  # four wake-ups a second: nothing next to a click's work
STALL_SECONDS = 1.0  # a third of Discord's 3 s; a click deferred at 1.5 s still makes it
FULL = 2  # the oldest generation: a full collection walks every object tracked


class GcPauses:
    """The garbage collector's pauses, timed while installed: the full ones handed to
    `observe_full`, all of them added up for `taken()`."""

    def __init__(self, observe_full: Callable[[float], None]) -> None:
        self._observe_full = observe_full
        self._began = 0.0
        self._taken = 0.0

    def install(self) -> None:
        if self._on_collection not in gc.callbacks:
            gc.callbacks.append(self._on_collection)

    def remove(self) -> None:
        if self._on_collection in gc.callbacks:
            gc.callbacks.remove(self._on_collection)

    def taken(self) -> float:
        """Seconds collected since the last call (then counted again from zero)."""
        taken, self._taken = self._taken, 0.0
        return taken

    def _on_collection(self, phase: str, info: dict[str, Any]) -> None:
        # Called with the GIL held, before and after each collection: one at a time.
        if phase == "start":
            self._began = time.perf_counter()
            return
        seconds = time.perf_counter() - self._began
        self._taken += seconds
        if info.get("generation") == FULL:
            self._observe_full(seconds)


async def watch_the_loop(
    observe_lag: Callable[[float], None],
    pauses: GcPauses,
    every: float = WAKE_EVERY_SECONDS,
    stall: float = STALL_SECONDS,
) -> None:
    """Measure the loop's lag every `every` seconds until cancelled; warn of a stall."""
    pauses.taken()  # what was collected before the watch began is not its business
    while True:
        due = time.monotonic() + every
        await asyncio.sleep(every)
        lag = max(0.0, time.monotonic() - due)
        collected = pauses.taken()
        observe_lag(lag)
        if lag >= stall:
            log.warning(
                "the event loop was held for %.2f s (garbage collection: %.2f s of it); "
                "every click of this process waited as long",
                lag,
                collected,
            )
