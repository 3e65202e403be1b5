"""Fixtures for end-to-end tests against the local Discord stand-in."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Generator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bot.devserver.standin import FakeDiscord, Latency, Realism

if TYPE_CHECKING:  # imported when used: the module's e2e mark is registered below
    from tests.e2e.test_bot_e2e import BotLauncher

# The end-to-end tests run against Discord as it is: latency, rate limits, permissions,
# application emojis, bodies checked against its OpenAPI spec. The latency is a quarter of
# Discord's (20 ms round trips, not 80): at 80 the suite took more than twice as long as
# against the ideal Discord (111 s against 54, the Extrawurm game alone 45 s instead of 4),
# at 20 it takes 70 to 90 s.
E2E_REALISM = Realism.discord(latency=Latency(round_trip=0.020, jitter=0.010))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep each phase's report on the test item (``item.rep_call``), so a fixture's
    teardown can tell whether the test failed (and, say, print a subprocess's log)."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(autouse=True)
def stand_in_tables(bots_load_stand_in_tables: None) -> None:
    """Every bot process here loads stand-ins for Picker's tables (tests/conftest.py)."""


@pytest.fixture
def realism(request: pytest.FixtureRequest) -> Realism:
    """E2E_REALISM, changed by the test's `discord` mark if it has one."""
    marker = request.node.get_closest_marker("discord")
    return dataclasses.replace(E2E_REALISM, **marker.kwargs) if marker else E2E_REALISM


@pytest.fixture
async def fake_discord(realism: Realism) -> AsyncIterator[FakeDiscord]:
    """A running stand-in on a free port of 127.0.0.1, as real as `realism`.

    After the test it fails if any unknown route was hit or any request was rejected
    (a 429 the bot drew included): a test that provokes a rejection on purpose takes it
    with ``fake.take_rejections()`` or ``await fake.wait_for_rejection(code)`` (and clears
    ``fake.unknown_routes``).
    """
    async with FakeDiscord(realism=realism) as fake:
        yield fake
    fake.check()


@pytest.fixture
async def launcher(
    fake_discord: FakeDiscord, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[BotLauncher]:
    from tests.e2e.test_bot_e2e import launching

    async with launching(fake_discord, tmp_path / "bot", request) as launcher:
        yield launcher
