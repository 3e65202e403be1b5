"""Give the memory glibc's allocator holds free back to the system, once a minute.

Python keeps objects of up to 512 bytes in arenas of its own; anything larger (a
gateway message's text, a rendered message's dicts, the solver's arrays, the pictures'
buffers) comes from glibc's malloc. glibc returns memory to the system only from the top
of each heap: a block freed below one still in use stays resident. In a soak (150 games,
one process) the heaps grew 23 MB between minutes 2 and 8, 17 MB of it free, while the
Python objects alive stayed level; at minute 11 one trim gave back 20 MB of 254
(docs/SCALING.md, "Memory"). `malloc_trim(0)` hands those free pages back
(`madvise(MADV_DONTNEED)`: the addresses stay reserved, the pages go), in milliseconds.
Off glibc (musl, macOS) there is no such call and nothing is done.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

TRIM_EVERY_SECONDS = 60.0


def malloc_trim() -> Callable[[], bool] | None:
    """glibc's `malloc_trim(0)` (True where it returned memory), or None off glibc."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: bool(trim(0))


async def keep_trimming(
    every: float = TRIM_EVERY_SECONDS, trim: Callable[[], bool] | None = None
) -> None:
    """Trim the allocator's heaps every `every` seconds, until cancelled."""
    trim = trim or malloc_trim()
    if trim is None:
        log.info("no malloc_trim here (not glibc): the allocator's free memory stays")
        return
    while True:
        await asyncio.sleep(every)
        trim()
