"""The threads that draw end pictures and compute reviews, one each, and the two that
decide computer players' moves.

All of it is CPU work kept off the event loop. Python runs one thread at a time (the
GIL), so a second thread for the same work adds no speed, only memory: glibc gives each
thread that allocates an arena of its own, and what one arena frees the others do not
reuse. End pictures of 2 to 7 players drawn six at once in asyncio's default pool left
the process 54 MB larger; drawn in one thread, 11 MB (`python -m benchmarks.bench_memory
--work pictures --threads 6`, then 1; commit d5acd72).
One thread each, so a review (a third of a second) never holds up an end screen.
Computer players' moves have two: one slow Hard move does not hold up the others, and a
burst of moves leaves the event loop its share of the GIL. A restart resumes every
computer player's turn at once, with its caches cold: in asyncio's default pool (six
threads on 2 cores) the moves computed six at a time, the loop could count on about a
seventh of the GIL, and a click's commit held its pooled connection about ten times as
long, until every connection was taken (a restart at 1,000 games, commit 45a9188).

While one of these threads computes, the event loop waits for the GIL each time it
comes back from a socket call, and Python makes a computing thread hand the GIL over
only after its switch interval: 5 ms by default, so a click that makes a dozen requests
waited about 75 ms more while a review ran (`python -m benchmarks.bench_loop_wait`).
`favour_the_event_loop` shortens it.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

PICTURES = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")
REVIEWS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reviews")
COMPUTER_PLAYERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="computer-players")

# How long a computing thread keeps the GIL while another thread waits for it. At 0.5 ms
# the loop's wait for a dozen socket calls beside a review fell from 77 to 12 ms and the
# review's own speed did not measurably change (`benchmarks.bench_loop_wait`).
SWITCH_INTERVAL_SECONDS = 0.0005


def favour_the_event_loop() -> None:
    """Make threads computing in Python hand the GIL to the event loop sooner (for the
    whole process: it is the bot's)."""
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)


async def run_in(
    executor: ThreadPoolExecutor, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs
) -> T:
    """`work(*args, **kwargs)` in `executor`'s thread, with the caller's context variables
    (the language a message is drawn in), as asyncio.to_thread carries them."""
    context = contextvars.copy_context()
    call = functools.partial(context.run, work, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(executor, call)
