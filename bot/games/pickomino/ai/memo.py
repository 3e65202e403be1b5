"""The solvers' memos: shared by the computer players, kept apart for a review.

A turn asks the same solved table at every decision, so each solver function keeps
the tables it made, most recently used first, for every game in progress at once (a
computer player's turn, a hint). What they need at a time is small: the turns in
progress, about a dozen tables a process at 1,000 games (commit 929c888).

A review replays a finished game and solves each of its turns once, tables that no
game in progress will ask for. Written into the shared memos they would push out the
turns in progress (solved again at their next decision) and fill the memos to their
bounds, a few hundred kilobytes a game ended (the soaks' memory growth once games
end). So a review makes its tables in a memo of its own (`private_memos()`), small and
dropped with the review.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, update_wrapper
from typing import Any, Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

PRIVATE_KEPT = 16  # tables a private memo keeps: a review goes turn by turn

# Each function's private memo, by the function, while `private_memos()` is open.
_PRIVATE: ContextVar[dict[Callable[..., Any], OrderedDict[Hashable, Any]] | None] = ContextVar(
    "private_memos", default=None
)


@contextmanager
def private_memos() -> Iterator[None]:
    """In this context (this thread's), memoized solvers keep what they make to
    themselves: nothing is read from or written to the shared memos."""
    token = _PRIVATE.set({})
    try:
        yield
    finally:
        _PRIVATE.reset(token)


class Memoized(Generic[P, R]):
    """`function` memoized: in a shared LRU memo of `kept` results, or, inside
    `private_memos()`, in that context's own memo of `PRIVATE_KEPT`."""

    def __init__(self, function: Callable[P, R], kept: int) -> None:
        self._function = function
        shared = lru_cache(maxsize=kept)(function)
        self._shared: Callable[..., R] = shared  # its arguments are hashable, as lru_cache needs
        self.cache_info = shared.cache_info
        self.cache_clear = shared.cache_clear
        update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        memos = _PRIVATE.get()
        if memos is None:
            return self._shared(*args, **kwargs)
        memo = memos.get(self._function)
        if memo is None:  # not setdefault: it would make an OrderedDict at every call
            memo = memos[self._function] = OrderedDict()
        key = (args, tuple(sorted(kwargs.items())))
        if key in memo:
            memo.move_to_end(key)
            result: R = memo[key]
            return result
        result = self._function(*args, **kwargs)
        memo[key] = result
        if len(memo) > PRIVATE_KEPT:
            memo.popitem(last=False)
        return result


def memoized(kept: int) -> Callable[[Callable[P, R]], Memoized[P, R]]:
    """Decorator: `Memoized(function, kept)`."""
    return lambda function: Memoized(function, kept)
