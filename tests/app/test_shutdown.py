"""The bot's shutdown (bot.app.shutdown): what is in progress ends before what it needs
closes under it."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.sessions import service
from bot.sessions.timers import TASK_PREFIX
from bot.storage import open_database
from tests.cogs.helpers import add_bots, choose, open_lobby
from tests.discord_harness import BotHarness

STEP_SECONDS = 0.2  # a computer player's move, slowed so that a close comes in mid-step


async def test_a_computer_players_step_due_at_shutdown_commits_before_the_database_closes(
    tmp_path: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Computer players step by themselves, each step arming the next as it commits: a
    step under way as the bot closes is committed first, and none comes after it (the
    next start arms the stored deadline again). Before, the steps went on while the
    database closed: "could not commit session", "turn timer failed; retrying"."""
    caplog.set_level(logging.INFO)
    stepping = asyncio.Event()
    real_run_in = service.run_in

    async def slow_move(*arguments: Any) -> Any:
        stepping.set()
        await asyncio.sleep(STEP_SECONDS)
        return await real_run_in(*arguments)

    monkeypatch.setattr("bot.sessions.service.run_in", slow_move)
    database = tmp_path / "bot.db"
    async with BotHarness.running(database) as harness:
        anne = harness.user("Anne")
        lobby = await open_lobby(harness, anne, first_player="host")
        lobby = await add_bots(harness, anne, lobby, "Easy", "Hard")
        await harness.click(anne, lobby, "Start")
        for _ in range(100):  # Anne plays her turn; then the computer's begins
            if stepping.is_set():
                break
            message = harness.message(lobby.id)
            await harness.click(anne, message, choose(message))
            await asyncio.sleep(0.01)
        assert stepping.is_set()
        stepped_from = (await harness.session()).version
    timers = [t for t in asyncio.all_tasks() if t.get_name().startswith(TASK_PREFIX)]
    assert timers == []
    db = await open_database(f"sqlite:///{database}")
    try:
        closed_at = await db.fetchone("SELECT version FROM sessions")
        assert closed_at["version"] > stepped_from  # the step under way, committed
        await asyncio.sleep(2 * STEP_SECONDS)  # a step that went on would commit now
        assert await db.fetchone("SELECT version FROM sessions") == closed_at
    finally:
        await db.close()
    ours = [r for r in caplog.records if r.name.startswith("bot")]
    failures = [r for r in ours if r.exc_info or r.levelno >= logging.WARNING]
    assert failures == [], [r.getMessage() for r in failures]
