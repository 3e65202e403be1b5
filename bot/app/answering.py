"""The interactions discord.py is answering now, waited for twice: once every shard is
connected after a restart (the clicks Discord replayed, before the rest of start-up
runs), and at shutdown (before the HTTP session closes under their answers)."""

from __future__ import annotations

import asyncio
from typing import Any

# discord.py's names for the tasks that handle a command or a component's interaction.
_INTERACTION_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item")
FIRST_ANSWER_SECONDS = 3.0  # Discord's deadline for a first answer


def _answers_an_interaction(task: asyncio.Task[Any]) -> bool:
    return task is not asyncio.current_task() and task.get_name().startswith(_INTERACTION_TASKS)


async def answers_in_flight() -> int:
    """Wait for the interactions being handled now to be answered, at most Discord's
    deadline for a first answer (past it, their answers would be refused anyway); how
    many there were."""
    answering = [task for task in asyncio.all_tasks() if _answers_an_interaction(task)]
    if answering:
        await asyncio.wait(answering, timeout=FIRST_ANSWER_SECONDS)
    return len(answering)
