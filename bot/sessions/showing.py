"""Each channel's changes are shown in the order they were committed, without holding
the channel's lock while Discord answers.

A change takes its turn (`ShowOrder.take`) while the channel's lock is still held, right
after its commit, so turns follow versions; it is shown once the turns before it are
done. Talking to Discord can be slow (latency, a rate limit's `retry_after`, a retry
after a 5xx), and none of it holds the lock: clicks keep committing meanwhile.

A turn that only edits the message through the channel (a computer player's step, the
timer) is dropped when a newer change of the channel has taken its turn before it went
out, since that one shows more. One already on its way is not cut short: cancelled
while discord.py waits out a rate limit's reset, it would let the next request go
early and draw a 429. A click's own answer is never dropped: each interaction gets its
one answer (and one that waits too long is acknowledged first, see the service).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field


@dataclass(slots=True)
class _Turns:
    taken: int = 0  # the last turn handed out
    newest_shown: int = 0  # the last turn handed out that shows the live message
    done: int = 0  # every turn up to this one is done
    finished: set[int] = field(default_factory=set)  # done out of order (cancelled waits)
    waiters: dict[int, asyncio.Future[None]] = field(default_factory=dict)


class ShowOrder:
    """Turns, one sequence per channel."""

    def __init__(self) -> None:
        self._channels: dict[int, _Turns] = {}
        self._idle: list[asyncio.Future[None]] = []  # waiting for every turn to be done

    async def idle(self) -> None:
        """Until no change of any channel is waiting or being shown (tests, shutdown)."""
        while self._channels:
            waiter = asyncio.get_running_loop().create_future()
            self._idle.append(waiter)
            await waiter

    def take(self, channel_id: int, *, shows_message: bool = True) -> int:
        """The next turn of the channel (call it under the channel's lock, after the
        commit). If it shows the live message, the channel edits waiting before it are
        skipped."""
        turns = self._channels.setdefault(channel_id, _Turns())
        turns.taken += 1
        if shows_message:
            turns.newest_shown = turns.taken
        return turns.taken

    def is_next(self, channel_id: int, turn: int) -> bool:
        """Whether nothing before `turn` is still being shown."""
        return self._channels[channel_id].done >= turn - 1

    def superseded(self, channel_id: int, turn: int) -> bool:
        """Whether a newer change that shows the live message has taken its turn."""
        return self._channels[channel_id].newest_shown > turn

    async def wait(self, channel_id: int, turn: int, timeout: float | None = None) -> bool:
        """Until every turn before `turn` is done (True), or `timeout` seconds (False);
        a wait that timed out may be taken up again."""
        turns = self._channels[channel_id]
        if turns.done >= turn - 1:
            return True
        waiter = turns.waiters.get(turn)
        if waiter is None:
            waiter = turns.waiters[turn] = asyncio.get_running_loop().create_future()
        done, _ = await asyncio.wait({waiter}, timeout=timeout)
        if done:
            turns.waiters.pop(turn, None)
        return bool(done)

    async def run(
        self,
        channel_id: int,
        turn: int,
        show: Callable[[], Awaitable[None]],
        *,
        supersedable: bool,
    ) -> bool:
        """Show in `turn`: wait for the turns before it, then `show()`. A supersedable
        turn is skipped when a newer turn showing the message was taken meanwhile; then
        False is returned (the newer turn shows the channel). Exceptions of `show`
        propagate; the turn is done whatever happens."""
        try:
            await self.wait(channel_id, turn)
            if supersedable and self.superseded(channel_id, turn):
                return False
            await show()
            return True
        finally:
            self.finish(channel_id, turn)

    def finish(self, channel_id: int, turn: int) -> None:
        """`turn` is done (shown, skipped or failed): the next may go."""
        turns = self._channels.get(channel_id)
        if turns is None:
            return
        turns.finished.add(turn)
        while turns.done + 1 in turns.finished:
            turns.done += 1
            turns.finished.discard(turns.done)
        waiter = turns.waiters.get(turns.done + 1)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        if turns.done == turns.taken and not turns.waiters:
            # Idle: forget the channel (a new sequence starts at its next change).
            with contextlib.suppress(KeyError):
                del self._channels[channel_id]
            if not self._channels:
                idle, self._idle = self._idle, []
                for waiter in idle:
                    if not waiter.done():
                        waiter.set_result(None)
