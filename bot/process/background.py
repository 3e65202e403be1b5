"""Work run in tasks of its own, kept until it is done.

The event loop holds tasks only weakly: a task nobody keeps may be collected before it
has run to its end. The pings, the live messages' repairs and the play page each start
such tasks; this is the one place that keeps them, waits for them and cancels them, and
logs a failure that nobody awaited instead of leaving it to "Task exception was never
retrieved".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class BackgroundTasks:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def __len__(self) -> int:
        """How many are still running."""
        return len(self._tasks)

    def start(self, work: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run `work` in a task of its own, kept until it is done."""
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    async def wait(self) -> None:
        """Until every task started, those started meanwhile too, is done."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    def cancel(self) -> None:
        """Cancel every task still running (at shutdown)."""
        for task in list(self._tasks):
            task.cancel()

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("background task %s failed", task.get_name(), exc_info=error)
