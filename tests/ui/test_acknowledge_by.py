"""When a held-up click is acknowledged: 1.5 s after Discord made it, not after it
arrived, so a click replayed after a restart is still answered within its 3 s."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from discord.utils import time_snowflake

from bot.ui.clicks import DEFER_AFTER_SECONDS, acknowledge_by

NOW = datetime(2026, 11, 28, 10, 23, 30, tzinfo=UTC)
RECEIVED = 500.0  # time.monotonic() when it arrived


def made(seconds_ago: float) -> int:
    return time_snowflake(NOW - timedelta(seconds=seconds_ago))


def test_a_live_click_is_acknowledged_the_usual_time_after_it_was_made() -> None:
    assert acknowledge_by(RECEIVED, made(0), NOW) == RECEIVED + DEFER_AFTER_SECONDS
    assert abs(acknowledge_by(RECEIVED, made(0.1), NOW) - (RECEIVED + 1.4)) < 0.002


def test_a_replayed_click_is_acknowledged_sooner_or_at_once() -> None:
    assert abs(acknowledge_by(RECEIVED, made(1.0), NOW) - (RECEIVED + 0.5)) < 0.002
    assert acknowledge_by(RECEIVED, made(2.4), NOW) == RECEIVED  # at once: 0.6 s left


def test_a_clock_behind_discords_counts_from_the_arrival() -> None:
    assert acknowledge_by(RECEIVED, made(-5), NOW) == RECEIVED + DEFER_AFTER_SECONDS
