"""Whether PostgreSQL is reachable, from what its statements met: a driver error means
"away" or "refused this statement", and an outage is logged as a few warning lines
(when it begins, every minute it lasts, when it ends), never a traceback per statement.
A pool with no free connection is not an outage: `Busy` says so apart."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import asyncpg

from bot.storage.protocols import DatabaseBusy, DatabaseUnavailable, StorageError

log = logging.getLogger(__name__)

STILL_DOWN_EVERY_SECONDS = 60.0
BUSY_TOLD_EVERY_SECONDS = 60.0

# The server is away, not refusing what was asked: a refused or dropped connection, a
# server starting up, in recovery or shutting down, no answer in time.
_AWAY = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,  # dropped, refused, resolution unknown
    asyncpg.CannotConnectNowError,  # starting up, in recovery
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
)


def is_away(error: BaseException) -> bool:
    """Whether `error` says the server is away rather than the statement is wrong."""
    return away_cause(error) is not None


def away_cause(error: BaseException) -> BaseException | None:
    """The error that says the server is away: `error` itself, or one it was raised
    while handling. A cut in the middle of a transaction fails the rollback after it
    too, and asyncpg may word that second error as a statement's ("another operation is
    in progress"): the cut under it is what happened."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if _says_away(cause):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


def _says_away(error: BaseException) -> bool:
    if isinstance(error, _AWAY):
        return True
    # A connection the server cut mid-operation can leave asyncpg's protocol in a state
    # it refuses to leave ("cannot switch to state ..."): that connection is gone too.
    if isinstance(error, asyncpg.InternalClientError):
        return True
    # asyncpg's words for a connection the server closed under it (e.g. at a rollback).
    return isinstance(error, asyncpg.InterfaceError) and "connection is closed" in str(error)


class Outage:
    """The database's reachability as the bot's statements found it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.down_since: float | None = None
        self._told_at = 0.0
        self.last_error = ""
        self.answered_at = float("-inf")  # the last statement that went through

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def error(self, error: BaseException) -> StorageError:
        """The StorageError to raise for a driver's `error`, the outage noted."""
        away = away_cause(error)
        if away is None:
            return StorageError(str(error))
        why = describe(away)
        now = self.clock()
        self.last_error = why
        if self.down_since is None:
            self.down_since = self._told_at = now
            log.warning("database unreachable (%s): moves are refused until it answers", why)
        elif now - self._told_at >= STILL_DOWN_EVERY_SECONDS:
            self._told_at = now
            log.warning(
                "database still unreachable after %.0f s (%s): check that PostgreSQL is "
                "running and DATABASE_URL reaches it; moves are refused meanwhile",
                now - self.down_since,
                why,
            )
        return DatabaseUnavailable(why)

    def answered(self) -> None:
        """A statement went through: an outage, if any, is over."""
        self.answered_at = now = self.clock()
        if self.down_since is None:
            return
        log.warning("database reachable again after %.1f s", now - self.down_since)
        self.down_since = None


class Busy:
    """Waits for a pooled connection that ran out while all of them were in use: a
    warning the first time and then at most once a minute, with how many since."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._told_at: float | None = None
        self._since_told = 0

    def error(self, connections: int, waited: float) -> DatabaseBusy:
        why = f"all {connections} pooled connections in use for {waited:g} s"
        now = self.clock()
        self._since_told += 1
        if self._told_at is None or now - self._told_at >= BUSY_TOLD_EVERY_SECONDS:
            log.warning(
                "database busy: %s (%d such waits in the last minute): moves are refused while "
                "the bot has more transactions at once than connections; the server "
                "answers, so this is load, not an outage",
                why,
                self._since_told,
            )
            self._told_at, self._since_told = now, 0
        return DatabaseBusy(why)


def describe(error: BaseException) -> str:
    """A short reason: the error's class, and its text if it has one."""
    text = str(error).strip()
    name = type(error).__name__
    return f"{name}: {text}" if text else name
