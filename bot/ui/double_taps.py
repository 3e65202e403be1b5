"""Double taps: the same person pressing the same button of the same message (the same
custom_id, and for a menu the same option) twice within a few seconds, most often a
tap that registered twice on a phone. The first tap is accepted and its change shown;
the second finds the game moved on (or, in a lobby, the person already in) and is
refused, which is news to nobody: it is acknowledged quietly instead.

A click on an old state that is not the twin of an accepted one (another person's,
another button or message, long after, or one whose first tap was refused and told
why) still gets its explanation.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.render.custom_ids import ComponentRef

TWIN_SECONDS = 3.0  # a phone's double tap, plus Discord's way there, well within this
_PRUNE_AT = 1024  # accepted taps remembered before the old ones are let go

Click = tuple[int, int | None, ComponentRef]  # the user, the message, what was clicked


def click_of(user_id: int, message_id: int | None, ref: ComponentRef) -> Click:
    return (user_id, message_id, ref)


class DoubleTaps:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock  # when a click arrives
        # each accepted click -> when it arrived
        self._accepted: dict[Click, float] = {}

    def accepted(self, click: Click, arrived: float) -> None:
        """A click that arrived at `arrived` was accepted."""
        self._accepted[click] = arrived
        if len(self._accepted) > _PRUNE_AT:
            now = self.clock()
            self._accepted = {
                key: at for key, at in self._accepted.items() if now - at <= TWIN_SECONDS
            }

    def is_twin(self, click: Click, arrived: float) -> bool:
        """Whether the same person's same click was accepted within TWIN_SECONDS of this
        one (before it, or just after if the two overtook each other on their way)."""
        twin = self._accepted.get(click)
        return twin is not None and abs(arrived - twin) <= TWIN_SECONDS
