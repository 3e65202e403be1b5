"""Work done again while the database is busy or away, for work no one is waiting on.

A click is never waited for: it is told at once that its move was not played. But some
work runs in the background and is had only once if it is not done now (a review is
stored after its game's events were dropped), or must be done at some point (the
command sync at start-up, which a restart under load can find with every pooled
connection taken for seconds). Such work waits out the database here, one INFO line a
try, so that a restart of PostgreSQL (21 to 24 s in the soaks, docs/SCALING.md) costs
nothing and logs no traceback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.storage.protocols import DatabaseUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")


async def when_the_database_answers(
    work: Callable[[], Awaitable[T]],
    *,
    what: str,
    every: float,
    tries: int | None = None,
) -> T:
    """`work()`, tried again `every` seconds while it raises DatabaseUnavailable: at
    most `tries` times (then the last error is raised), or until it is done."""
    attempt = 0
    while True:
        attempt += 1
        try:
            return await work()
        except DatabaseUnavailable as error:
            if tries is not None and attempt >= tries:
                raise
            log.info("%s: database %s (%s); trying again in %g s", what, error.state, error, every)
        await asyncio.sleep(every)
