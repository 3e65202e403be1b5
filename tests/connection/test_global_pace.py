"""The bot token's requests paced under Discord's global rate limit
(bot/connection/global_pace.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.connection.global_pace import (
    BURST,
    SHARE_USED,
    Pace,
    bot_token_share,
    pace_bot_requests,
    urgent,
)


class Clock:
    """A clock that moves only when the pace sleeps, by as long as it sleeps."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        await asyncio.sleep(0)  # those started before run at the time they started
        self.now += seconds


def paced(rate: float, burst: int) -> tuple[Pace, Clock]:
    clock = Clock()
    return Pace(rate, burst=burst, clock=clock, sleep=clock.sleep), clock


async def started(pace: Pace, clock: Clock, names: list[str], order: list[str]) -> None:
    async def start(name: str) -> None:
        await pace.wait(first=name.startswith("urgent"))
        order.append(f"{name}@{clock.now - 100.0:.2f}")

    await asyncio.gather(*(start(name) for name in names))


async def test_a_burst_starts_at_once_and_the_rest_at_the_rate() -> None:
    pace, clock = paced(10.0, burst=3)
    order: list[str] = []
    await started(pace, clock, [f"r{n}" for n in range(6)], order)
    assert order == ["r0@0.00", "r1@0.00", "r2@0.00", "r3@0.10", "r4@0.20", "r5@0.30"]
    clock.now += 10.0  # a quiet spell: a burst again
    clock.slept.clear()
    for _ in range(4):
        await pace.wait()
    assert clock.slept == pytest.approx([0.1])


async def test_those_waiting_start_in_the_order_they_asked() -> None:
    pace, clock = paced(4.0, burst=1)
    order: list[str] = []
    await started(pace, clock, ["a", "b", "c", "d"], order)
    assert order == ["a@0.00", "b@0.25", "c@0.50", "d@0.75"]
    assert pace.delay() == pytest.approx(0.25)


async def test_urgent_requests_start_before_the_others_waiting() -> None:
    pace, clock = paced(4.0, burst=1)
    order: list[str] = []
    first = asyncio.ensure_future(started(pace, clock, ["a", "b", "c"], order))
    while pace.waiting() < 2:  # a started, b and c wait
        await asyncio.sleep(0)
    await started(pace, clock, ["urgent-1", "urgent-2"], order)
    await first
    assert order == ["a@0.00", "urgent-1@0.25", "urgent-2@0.50", "b@0.75", "c@1.00"]


async def test_a_wait_given_up_takes_no_start() -> None:
    pace, clock = paced(4.0, burst=1)
    await pace.wait()
    gone = asyncio.ensure_future(pace.wait())
    while not pace.waiting():
        await asyncio.sleep(0)
    gone.cancel()
    order: list[str] = []
    await started(pace, clock, ["b"], order)
    assert order == ["b@0.25"]  # the start the cancelled one would have had
    assert pace.waiting() == 0


@pytest.mark.parametrize(
    ("shards", "count", "share"),
    [(None, None, 1.0), ((0,), 2, 0.5), ((0, 1), 4, 0.5), ((0, 1, 2, 3), 4, 1.0)],
)
def test_each_process_takes_its_shards_share(
    shards: tuple[int, ...] | None, count: int | None, share: float
) -> None:
    assert bot_token_share(shards, count) == share


class FakeHttp:
    """discord.py's HTTPClient as far as the pace sees it: one request method."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def request(self, route: str, **kwargs: Any) -> str:
        self.sent.append((route, kwargs))
        return f"answer to {route}"


async def test_the_bot_tokens_requests_wait_for_their_start() -> None:
    http = FakeHttp()
    pace = pace_bot_requests(http, per_second=25.0)  # type: ignore[arg-type]
    clock = Clock()
    pace.clock, pace.sleep = clock, clock.sleep
    routes = [f"PATCH /channels/1/messages/{n}" for n in range(BURST + 3)]
    answers = [await http.request(route, files=None) for route in routes]
    assert answers == [f"answer to {route}" for route in routes]
    assert http.sent == [(route, {"files": None}) for route in routes]
    interval = 1 / (25.0 * SHARE_USED)
    assert clock.slept == pytest.approx([interval] * 3)


async def test_a_request_made_urgent_goes_before_the_edits_waiting() -> None:
    http = FakeHttp()
    pace = pace_bot_requests(http, per_second=1.0)  # type: ignore[arg-type]
    clock = Clock()
    pace.clock, pace.sleep = clock, clock.sleep
    for n in range(BURST):  # the burst spent
        await http.request(f"PATCH /channels/{n}/messages/1")
    edits = [asyncio.ensure_future(http.request(f"PATCH /channels/{n}/messages/2")) for n in (1, 2)]
    while pace.waiting() < 2:
        await asyncio.sleep(0)

    async def lookup() -> str:
        with urgent():
            return await http.request("GET /applications/1/activity-instances/i-1")

    assert await lookup() == "answer to GET /applications/1/activity-instances/i-1"
    await asyncio.gather(*edits)
    assert [route for route, _ in http.sent[BURST:]] == [
        "GET /applications/1/activity-instances/i-1",
        "PATCH /channels/1/messages/2",
        "PATCH /channels/2/messages/2",
    ]
