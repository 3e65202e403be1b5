from __future__ import annotations

from bot.render.custom_ids import ClickAction, ComponentRef
from bot.ui.double_taps import _PRUNE_AT, TWIN_SECONDS, DoubleTaps, click_of


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def move(user_id: int, version: int = 1) -> tuple[int, int | None, ComponentRef]:
    return click_of(user_id, 500, ComponentRef(ClickAction.MOVE, 7, version, "roll"))


def test_the_same_click_in_another_interaction_soon_after_is_a_twin() -> None:
    taps = DoubleTaps(Clock())
    taps.accepted(move(1), arrived=10.0, interaction_id=100)
    assert taps.is_twin(move(1), arrived=10.4, interaction_id=101)
    assert not taps.is_twin(move(1), arrived=10.4, interaction_id=100)  # itself
    assert not taps.is_twin(move(2), arrived=10.4, interaction_id=102)  # someone else
    assert not taps.is_twin(move(1, version=2), arrived=10.4, interaction_id=103)
    assert not taps.is_twin(move(1), arrived=10.0 + TWIN_SECONDS + 0.1, interaction_id=104)


def test_a_busy_process_remembers_the_young_taps_and_lets_the_old_go() -> None:
    # 400 clicks a second, more than _PRUNE_AT in TWIN_SECONDS: every tap of the last
    # TWIN_SECONDS is still known, and the memory holds about that many, not all.
    clock = Clock()
    taps = DoubleTaps(clock)
    rate = 400
    for index in range(rate * 20):
        clock.now = index / rate
        taps.accepted(move(index), arrived=clock.now, interaction_id=index)
    last = rate * 20 - 1
    young = range(last - int(rate * TWIN_SECONDS) + 1, last + 1)
    assert all(taps.is_twin(move(i), clock.now, interaction_id=-1) for i in young)
    assert len(taps._accepted) <= int(rate * TWIN_SECONDS) + 2
    assert move(0) not in taps._accepted


def test_a_tap_marked_again_is_kept_as_young() -> None:
    # The same click accepted again (a new version of a lobby button, say) counts from
    # its latest acceptance, wherever its first one sat in the memory.
    clock = Clock()
    taps = DoubleTaps(clock)
    taps.accepted(move(0), arrived=0.0, interaction_id=1)
    for index in range(1, _PRUNE_AT):
        taps.accepted(move(index), arrived=0.0, interaction_id=index + 1)
    clock.now = 5.0
    taps.accepted(move(0), arrived=5.0, interaction_id=9_999)
    taps.accepted(move(_PRUNE_AT), arrived=5.0, interaction_id=10_000)  # over the bound
    assert taps.is_twin(move(0), arrived=5.5, interaction_id=10_001)
    assert move(1) not in taps._accepted
    assert len(taps._accepted) == 2
