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
        # each accepted click -> when it arrived, and its interaction's id
        self._accepted: dict[Click, tuple[float, int]] = {}

    def accepted(self, click: Click, arrived: float, interaction_id: int) -> None:
        """A click (interaction `interaction_id`) that arrived at `arrived` was accepted.
        Marked when its change is made, before the commit: its twin may be handled in the
        channel's next turn, before the first is shown."""
        self._accepted[click] = (arrived, interaction_id)
        if len(self._accepted) > _PRUNE_AT:
            now = self.clock()
            self._accepted = {
                key: seen for key, seen in self._accepted.items() if now - seen[0] <= TWIN_SECONDS
            }

    def is_twin(self, click: Click, arrived: float, interaction_id: int) -> bool:
        """Whether the same person's same click, in another interaction, was accepted
        within TWIN_SECONDS of this one (before it, or just after if the two overtook each
        other on their way). A click is never its own twin: one whose change was made but
        could not be saved is refused with the reason."""
        twin = self._accepted.get(click)
        if twin is None:
            return False
        twin_arrived, twin_id = twin
        return twin_id != interaction_id and abs(arrived - twin_arrived) <= TWIN_SECONDS
