"""Fixtures for end-to-end tests against the local Discord stand-in."""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bot.devserver.standin import FakeDiscord

if TYPE_CHECKING:  # imported when used: the module's e2e mark is registered below
    from tests.e2e.test_bot_e2e import BotLauncher


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "e2e: starts the real bot process against the Discord stand-in (part of the normal "
        "run; deselect with -m 'not e2e')",
    )


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep each phase's report on the test item (``item.rep_call``), so a fixture's
    teardown can tell whether the test failed (and, say, print a subprocess's log)."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running stand-in on a free port of 127.0.0.1.

    After the test it fails if any unknown route was hit or any request was rejected:
    a test that provokes a rejection on purpose takes it with ``fake.take_rejections()``
    or ``await fake.wait_for_rejection(code)`` (and clears ``fake.unknown_routes``).
    """
    async with FakeDiscord() as fake:
        yield fake
    fake.check()


@pytest.fixture
async def launcher(
    fake_discord: FakeDiscord, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[BotLauncher]:
    from tests.e2e.test_bot_e2e import launching

    async with launching(fake_discord, tmp_path / "bot", request) as launcher:
        yield launcher
