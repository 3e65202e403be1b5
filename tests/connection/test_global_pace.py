"""The bot token's requests paced under Discord's global rate limit
(bot/connection/global_pace.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.connection.global_pace import BURST, SHARE_USED, Pace, bot_token_share, pace_bot_requests


class Clock:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)


async def test_a_burst_starts_at_once_and_the_rest_at_the_rate() -> None:
    clock = Clock()
    pace = Pace(10.0, burst=3, clock=clock, sleep=clock.sleep)
    for _ in range(6):
        await pace.wait()
    assert clock.slept == pytest.approx([0.1, 0.2, 0.3])
    clock.now += 10.0  # a quiet spell: a burst again
    clock.slept.clear()
    for _ in range(4):
        await pace.wait()
    assert clock.slept == pytest.approx([0.1])


def test_requests_taken_while_waiting_keep_their_order() -> None:
    clock = Clock()
    pace = Pace(4.0, burst=1, clock=clock)
    delays = [pace.take() for _ in range(4)]
    clock.now += 0.3  # the first waits are over; later takes queue behind the others
    delays.append(pace.take())
    assert delays == pytest.approx([0.0, 0.25, 0.5, 0.75, 1.0 - 0.3])


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
    assert clock.slept == pytest.approx([interval, 2 * interval, 3 * interval])
