"""Give the memory glibc's allocator holds free back to the system, once a minute.

Python keeps objects of up to 512 bytes in arenas of its own; anything larger (a
gateway message's text, a rendered message's dicts, the solver's arrays, the pictures'
buffers) comes from glibc's malloc. glibc returns memory to the system only from the top
of each heap: a block freed below one still in use stays resident. In a soak (150 games,
one process) the heaps grew 23 MB between minutes 2 and 8, 17 MB of it free, while the
Python objects alive stayed level; at minute 11 one trim gave back 20 MB of 254
(commit 9915f0e). `malloc_trim(0)` hands those free pages back
(`madvise(MADV_DONTNEED)`: the addresses stay reserved, the pages go), in milliseconds.
Off glibc (musl, macOS) there is no such call and nothing is done.

A trim reaches only free blocks, and the main heap's top; not the top of the heap
glibc gives each thread (`malloc_trim` leaves it), which glibc shrinks only when a free
leaves more than its trim threshold there. And glibc raises its thresholds each time a
block with a mapping of its own is freed: the mapping threshold to that block's size
(up to 32 MB), the trim threshold to twice it. After the first end picture (a 3 to 5 MB
buffer), each later one came from the drawing thread's heap, and up to twice its size
stayed resident at that heap's top for good. `keep_large_blocks_mapped` fixes the two
thresholds instead: a block of 2 MiB or more has a mapping of its own, given back when
freed, and a thread's heap keeps at most 4 MiB free at its top. At glibc's defaults
(128 KiB, and a top trimmed at each free beyond it) a fresh Extrawurm turn of the
solver took 25% longer, the numpy temporaries mapped and faulted in each time; at
these it takes what it did (commit d759a02).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

TRIM_EVERY_SECONDS = 60.0
# mallopt's parameter numbers, from glibc's malloc.h
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
LARGE_BLOCK_BYTES = 2 * 1024 * 1024  # and larger: a mapping of their own
KEPT_AT_A_HEAPS_TOP_BYTES = 2 * LARGE_BLOCK_BYTES  # glibc's own ratio of the two


def _libc_function(name: str) -> Any | None:
    """The C library's function `name`, or None where there is no such one (not glibc)."""
    try:
        return getattr(ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6"), name)
    except (OSError, AttributeError):
        return None


def keep_large_blocks_mapped(
    large: int = LARGE_BLOCK_BYTES, kept_at_top: int = KEPT_AT_A_HEAPS_TOP_BYTES
) -> bool:
    """Map every block of `large` bytes or more apart, and let no heap's top keep more
    than `kept_at_top` free, for good: setting them turns glibc's raising of them off.
    True where set; False off glibc, where nothing is done."""
    mallopt = _libc_function("mallopt")
    if mallopt is None:
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, large)) and bool(mallopt(M_TRIM_THRESHOLD, kept_at_top))


def malloc_trim() -> Callable[[], bool] | None:
    """glibc's `malloc_trim(0)` (True where it returned memory), or None off glibc."""
    trim = _libc_function("malloc_trim")
    if trim is None:
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
