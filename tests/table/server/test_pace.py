"""A tab's pace: a burst, then a few actions a second; over it "slow down"; fifty
refusals within ten seconds close the tab."""

from __future__ import annotations

from bot.table.pace import Pace, Verdict


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_rate():
    clock = Clock()
    pace = Pace(4.0, 8, clock=clock)
    assert [pace.check() for _ in range(8)] == [Verdict.GO] * 8
    assert pace.check() is Verdict.SLOW_DOWN
    clock.now += 0.25  # one more a quarter second later
    assert pace.check() is Verdict.GO
    assert pace.check() is Verdict.SLOW_DOWN
    clock.now += 10.0  # a pause fills the burst again, no more
    assert [pace.check() for _ in range(9)] == [Verdict.GO] * 8 + [Verdict.SLOW_DOWN]


def test_a_person_tapping_fast_is_slowed_never_closed():
    clock = Clock()
    pace = Pace(4.0, 8, clock=clock)
    verdicts = []
    for _ in range(360):  # six taps a second for a minute
        verdicts.append(pace.check())
        clock.now += 1 / 6
    assert Verdict.FLOOD not in verdicts
    assert verdicts.count(Verdict.GO) >= 240  # all the pace allows


def test_a_flood_is_closed():
    clock = Clock()
    pace = Pace(4.0, 8, clock=clock)
    verdicts = [pace.check() for _ in range(100)]
    assert verdicts[:8] == [Verdict.GO] * 8
    assert verdicts[8 + 48] is Verdict.SLOW_DOWN
    assert verdicts[8 + 49] is Verdict.FLOOD
