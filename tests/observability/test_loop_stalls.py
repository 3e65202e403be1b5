"""The loop watch: a held event loop is measured and logged, with the collector's share."""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import time

import pytest

from bot.observability.loop_stalls import GcPauses, watch_the_loop
from bot.observability.metrics import Metrics
from tests.observability.test_metrics import value


async def watched(metrics: Metrics, pauses: GcPauses, hold: float, collect: bool = False) -> None:
    """Run the watch, hold the loop for `hold` seconds (collecting first if asked),
    and let the watch wake once after it."""
    watch = asyncio.create_task(watch_the_loop(metrics.loop_lag, pauses, every=0.02, stall=0.2))
    await asyncio.sleep(0.05)
    if collect:
        gc.collect()
    time.sleep(hold)  # holding the loop is the point
    await asyncio.sleep(0.05)
    watch.cancel()
    with pytest.raises(asyncio.CancelledError):
        await watch


async def test_a_held_loop_is_measured_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    metrics = Metrics()
    pauses = GcPauses(metrics.gc_full_pause)
    with caplog.at_level(logging.WARNING, logger="bot.observability.loop_stalls"):
        await watched(metrics, pauses, hold=0.3)
    # One wake-up came at least 0.3 s late; the others were on time.
    assert value(metrics, "bot_event_loop_lag_seconds_bucket", le="0.25") is not None
    wakes = value(metrics, "bot_event_loop_lag_seconds_count")
    late = wakes - value(metrics, "bot_event_loop_lag_seconds_bucket", le="0.25")
    assert late == 1
    assert wakes >= 3
    [warning] = caplog.records
    held = re.search(r"the event loop was held for (\d+\.\d+) s", warning.getMessage())
    assert held is not None
    assert 0.3 - 0.02 <= float(held.group(1)) < 0.5  # less what was left of its sleep


async def test_an_idle_loop_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    metrics = Metrics()
    with caplog.at_level(logging.WARNING, logger="bot.observability.loop_stalls"):
        await watched(metrics, GcPauses(metrics.gc_full_pause), hold=0.0)
    assert caplog.records == []
    wakes = value(metrics, "bot_event_loop_lag_seconds_count")
    assert wakes == value(metrics, "bot_event_loop_lag_seconds_bucket", le="0.25")


async def test_a_full_collection_is_timed_and_counted_in_the_stall(
    caplog: pytest.LogCaptureFixture,
) -> None:
    metrics = Metrics()
    pauses = GcPauses(metrics.gc_full_pause)
    pauses.install()
    try:
        with caplog.at_level(logging.WARNING, logger="bot.observability.loop_stalls"):
            await watched(metrics, pauses, hold=0.25, collect=True)
    finally:
        pauses.remove()
    assert value(metrics, "bot_gc_full_pause_seconds_count") >= 1
    full = value(metrics, "bot_gc_full_pause_seconds_sum")
    assert full is not None and full > 0
    [warning] = caplog.records
    share = re.search(r"garbage collection: (\d+\.\d+) s", warning.getMessage())
    assert share is not None
    assert float(share.group(1)) == pytest.approx(full, abs=0.006)  # printed to 0.01 s


def test_pauses_are_added_up_until_taken() -> None:
    pauses = GcPauses(lambda seconds: None)
    pauses.install()
    try:
        pauses.taken()
        gc.collect()
        gc.collect()
        assert pauses.taken() > 0
        assert pauses.taken() == 0.0
    finally:
        pauses.remove()


def test_installing_twice_adds_one_callback_and_removing_takes_it_away() -> None:
    pauses = GcPauses(lambda seconds: None)
    before = len(gc.callbacks)
    pauses.install()
    pauses.install()
    assert len(gc.callbacks) == before + 1
    pauses.remove()
    assert len(gc.callbacks) == before
