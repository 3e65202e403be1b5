"""Background work waiting out a busy or absent database (bot.storage.waiting)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.storage.protocols import DatabaseBusy, DatabaseUnavailable, StorageError
from bot.storage.waiting import when_the_database_answers


class Flaky:
    """Work that meets the database away `failures` times, then is done."""

    def __init__(self, failures: list[Exception]) -> None:
        self.failures = failures
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return "done"


async def test_work_is_tried_again_until_the_database_answers(caplog: Any):
    caplog.set_level(logging.INFO, logger="bot.storage.waiting")
    work = Flaky([DatabaseBusy("all 10 in use"), DatabaseUnavailable("connection refused")])
    assert await when_the_database_answers(work, what="the sync", every=0.001) == "done"
    assert work.calls == 3
    assert [record.getMessage() for record in caplog.records] == [
        "the sync: database busy (all 10 in use); trying again in 0.001 s",
        "the sync: database unreachable (connection refused); trying again in 0.001 s",
    ]
    assert not any(record.exc_info for record in caplog.records)


async def test_a_bound_on_tries_raises_the_last_refusal():
    work = Flaky([DatabaseBusy(f"try {n}") for n in range(1, 6)])
    with pytest.raises(DatabaseBusy, match="try 3"):
        await when_the_database_answers(work, what="a review", every=0.001, tries=3)
    assert work.calls == 3


async def test_one_try_is_no_wait_at_all():
    work = Flaky([DatabaseUnavailable("refused")])
    with pytest.raises(DatabaseUnavailable):
        await when_the_database_answers(work, what="a review", every=60.0, tries=1)
    assert work.calls == 1


async def test_a_statement_refused_for_what_it_says_is_not_tried_again():
    """A constraint or bad SQL says nothing of the database being away: no retry."""
    work = Flaky([StorageError("duplicate key"), DatabaseBusy("never reached")])
    with pytest.raises(StorageError, match="duplicate key"):
        await when_the_database_answers(work, what="a review", every=0.001)
    assert work.calls == 1
