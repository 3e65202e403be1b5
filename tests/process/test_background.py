"""BackgroundTasks: tasks kept until done, awaited, cancelled, and failures logged."""

from __future__ import annotations

import asyncio
import gc
import logging

import pytest

from bot.process.background import BackgroundTasks


async def test_a_task_is_kept_until_done_and_waited_for_with_those_it_starts() -> None:
    tasks = BackgroundTasks()
    finished: list[str] = []

    async def later(name: str, then: str | None = None) -> None:
        await asyncio.sleep(0.01)
        if then is not None:
            tasks.start(later(then), then)  # started while wait() runs: waited for too
        finished.append(name)

    tasks.start(later("first", then="second"), "first")
    gc.collect()  # the loop's weak reference alone would let it go
    assert len(tasks) == 1
    await tasks.wait()
    assert finished == ["first", "second"] and len(tasks) == 0


async def test_a_failure_is_logged_with_the_tasks_name(caplog: pytest.LogCaptureFixture) -> None:
    tasks = BackgroundTasks()

    async def broken() -> None:
        raise RuntimeError("lost connection")

    with caplog.at_level(logging.ERROR, logger="bot.process.background"):
        tasks.start(broken(), "turn-ping")
        await tasks.wait()
    assert "background task turn-ping failed" in caplog.text and "lost connection" in caplog.text


async def test_cancel_stops_every_task_still_running() -> None:
    tasks = BackgroundTasks()
    started = [tasks.start(asyncio.sleep(60), f"sleep-{n}") for n in range(3)]
    tasks.cancel()
    await tasks.wait()
    assert all(task.cancelled() for task in started) and len(tasks) == 0
