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
from collections import OrderedDict
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
        # each accepted click -> when it arrived, and its interaction's id; oldest first,
        # so the old ones are let go from the front, a few at a time
        self._accepted: OrderedDict[Click, tuple[float, int]] = OrderedDict()

    def accepted(self, click: Click, arrived: float, interaction_id: int) -> None:
        """A click (interaction `interaction_id`) that arrived at `arrived` was accepted.
        Marked when its change is made, before the commit: its twin may be handled in the
        channel's next turn, before the first is shown."""
        self._accepted[click] = (arrived, interaction_id)
        self._accepted.move_to_end(click)
        if len(self._accepted) > _PRUNE_AT:
            self._forget_before(self.clock() - TWIN_SECONDS)

    def _forget_before(self, oldest: float) -> None:
        """Let go of the taps that arrived before `oldest`, from the front. Taps are marked
        about in the order they arrive, and it stops at the first one still young: a
        process taking more than `_PRUNE_AT` clicks in TWIN_SECONDS then drops one or two
        a click, where filtering the whole memory again cost a thousand steps a click."""
        while self._accepted:
            click, (arrived, _) = next(iter(self._accepted.items()))
            if arrived >= oldest:
                return
            del self._accepted[click]

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
