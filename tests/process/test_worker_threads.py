"""bot.process.worker_threads: the threads that compute beside the event loop, and how
soon they hand it the GIL back."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.i18n import current_locale, with_locale
from bot.process.worker_threads import REVIEWS, SWITCH_INTERVAL_SECONDS, run_in
from tests.discord_harness import BotHarness


@pytest.fixture
def python_default_interval() -> Iterator[None]:
    previous = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    yield
    sys.setswitchinterval(previous)


@pytest.mark.usefixtures("python_default_interval")
async def test_a_started_bot_has_computing_threads_hand_the_gil_over_sooner(
    tmp_path: Path,
) -> None:
    async with BotHarness.running(tmp_path / "bot.db"):
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL_SECONDS)
    assert SWITCH_INTERVAL_SECONDS < 0.005  # shorter than Python's default


async def test_work_in_a_worker_thread_runs_in_the_callers_language() -> None:
    with with_locale("de"):
        assert await run_in(REVIEWS, current_locale.get) == "de"
