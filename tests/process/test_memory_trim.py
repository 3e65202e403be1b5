"""bot.process.memory_trim: the allocator's free pages go back to the system, once a
minute."""

from __future__ import annotations

import asyncio
import platform
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.process.memory_trim import keep_large_blocks_mapped, keep_trimming, malloc_trim
from tests.discord_harness import BotHarness

GLIBC = sys.platform == "linux" and platform.libc_ver()[0] == "glibc"

# What the scripts below print their resident memory with, in MB.
RSS_MB = textwrap.dedent(
    """
    def rss_mb():
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    """
)

# 80 MB in blocks too large for Python's own arenas (they come from malloc) and too
# small for a mapping of their own; all freed but the last, which holds the heap's top
# where it is: glibc keeps the rest resident until trimmed.
FRAGMENTED_HEAP = RSS_MB + textwrap.dedent(
    """
    from bot.process.memory_trim import malloc_trim


    blocks = [bytes(4000) for _ in range(20_000)]
    top = blocks[-1]
    del blocks
    before = rss_mb()
    malloc_trim()()
    print(before - rss_mb())
    """
)

# A thread makes and frees an 8 MB block three times, as the drawing thread does an end
# picture's buffers; then everything is trimmed. Prints the MB still resident.
THREAD_HEAP = RSS_MB + textwrap.dedent(
    """
    import sys
    import threading

    from bot.process.memory_trim import keep_large_blocks_mapped, malloc_trim


    def draw():
        for _ in range(3):
            block = bytearray(8_000_000)
            block[::4096] = bytes(len(block[::4096]))  # touched, so resident
            del block

    if sys.argv[1] == "mapped":
        assert keep_large_blocks_mapped()
    before = rss_mb()
    drawing = threading.Thread(target=draw)
    drawing.start()
    drawing.join()
    malloc_trim()()
    print(rss_mb() - before)
    """
)


def resident_after_a_threads_large_blocks(how: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", THREAD_HEAP, how], capture_output=True, text=True, check=True
    )
    return float(done.stdout)


@pytest.mark.skipif(not GLIBC, reason="mallopt's threshold is glibc's")
def test_a_threads_large_blocks_are_not_kept_once_their_threshold_is_fixed() -> None:
    # glibc's default: the first block mapped, the next two from the thread's heap,
    # whose top no trim hands back.
    assert resident_after_a_threads_large_blocks("default") > 6
    assert resident_after_a_threads_large_blocks("mapped") < 1


async def test_the_bot_keeps_large_blocks_mapped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    monkeypatch.setattr(
        "bot.app.startup.keep_large_blocks_mapped",
        lambda: calls.append(1) or keep_large_blocks_mapped(),
    )
    async with BotHarness.running(tmp_path / "bot.db"):
        assert calls == [1]


@pytest.mark.skipif(not GLIBC, reason="malloc_trim is glibc's")
def test_trimming_hands_back_what_was_freed_below_the_heaps_top() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FRAGMENTED_HEAP], capture_output=True, text=True, check=True
    )
    assert float(done.stdout) > 50  # MB of the 80 freed


async def test_the_heaps_are_trimmed_every_period_until_cancelled() -> None:
    trims: list[float] = []
    loop = asyncio.get_running_loop()
    task = asyncio.create_task(keep_trimming(0.01, lambda: trims.append(loop.time()) or True))
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert 3 <= len(trims) <= 10


async def test_without_malloc_trim_nothing_is_trimmed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.process.memory_trim.malloc_trim", lambda: None)
    await asyncio.wait_for(keep_trimming(0.01), timeout=1)  # returns at once


@pytest.mark.skipif(not GLIBC, reason="malloc_trim is glibc's")
def test_glibc_has_malloc_trim() -> None:
    trim = malloc_trim()
    assert trim is not None
    trim()


async def test_the_bot_trims_while_it_runs_and_stops_when_closed(tmp_path: Path) -> None:
    async with BotHarness.running(tmp_path / "bot.db"):
        trimming = [task for task in asyncio.all_tasks() if task.get_name() == "malloc-trim"]
        assert len(trimming) == 1 and not trimming[0].done()
    await asyncio.sleep(0)
    assert trimming[0].done()
