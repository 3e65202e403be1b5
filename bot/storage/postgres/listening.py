"""LISTEN on one PostgreSQL connection of its own, outside the pool, kept up.

A pooled connection cannot listen: the pool hands it to other work, and a LISTEN lasts
as long as its connection. So one connection per process does nothing else; when it is
lost (the server restarted, the connection cut, a network gone quiet: a `SELECT 1`
every few seconds finds that out) it is made again, and `listening(again=True)` says
so, since PostgreSQL does not keep notifications for a listener that was away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import asyncpg

from bot.storage.postgres.database import CONNECT_TIMEOUT, DRIVER_ERRORS, where

log = logging.getLogger(__name__)

# How long a lost connection waits before each try to connect again (the last repeats).
RETRY_SECONDS = (0.05, 0.25, 1.0, 2.0, 5.0)
# A quiet connection is asked `SELECT 1` this often: a cut without a reset (a network
# gone, a server frozen) is noticed within about this long plus CONNECT_TIMEOUT.
CHECK_SECONDS = 5.0


class Listening:
    """Notifications of `channel` on a connection of their own: `heard(payload)` for
    each, in the order PostgreSQL sent them (commit order); `listening(again)` once
    listening, `again` after a connection was lost. Both must not block."""

    def __init__(
        self,
        url: str,
        channel: str,
        heard: Callable[[str], None],
        listening: Callable[[bool], None],
        *,
        retry_seconds: tuple[float, ...] = RETRY_SECONDS,
        check_seconds: float = CHECK_SECONDS,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        self.url = url
        self.channel = channel
        self.heard = heard
        self.listening = listening
        self.retry_seconds = retry_seconds
        self.check_seconds = check_seconds
        self.connect_timeout = connect_timeout
        self.connection: asyncpg.Connection | None = None  # while listening
        self._task: asyncio.Task[None] | None = None
        self._up = asyncio.Event()  # set while listening

    def start(self) -> None:
        """Connect and listen in the background, until `close()`."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"listen-{self.channel}")

    async def until_listening(self) -> None:
        """Until the connection listens (at start-up, and in tests after a cut)."""
        await self._up.wait()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        failures = 0
        again = False
        while True:
            try:
                connection = await asyncpg.connect(self.url, timeout=self.connect_timeout)
            except DRIVER_ERRORS as error:
                if failures == 0:
                    log.warning(
                        "cannot listen for %s at %s: %s", self.channel, where(self.url), error
                    )
                delay = self.retry_seconds[min(failures, len(self.retry_seconds) - 1)]
                failures += 1
                await asyncio.sleep(delay)
                continue
            try:
                await self._listen(connection, again=again)
            except DRIVER_ERRORS as error:
                log.warning("listening for %s stopped: %r; connecting again", self.channel, error)
            finally:
                self._up.clear()
                self.connection = None
                connection.terminate()
            if failures:
                log.info("listening for %s again after %d failed tries", self.channel, failures)
            failures = 0
            again = True
            await asyncio.sleep(self.retry_seconds[0])

    async def _listen(self, connection: asyncpg.Connection, *, again: bool) -> None:
        """Listen on `connection` until it is lost."""
        lost = asyncio.Event()
        connection.add_termination_listener(lambda _: lost.set())
        await connection.add_listener(self.channel, self._heard)
        self.connection = connection
        self._up.set()
        self._tell_listening(again)
        while not connection.is_closed():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(lost.wait(), timeout=self.check_seconds)
            if lost.is_set():
                raise ConnectionError("the connection was closed")
            await connection.fetchval("SELECT 1", timeout=self.connect_timeout)

    def _heard(self, _: object, __: int, ___: str, payload: str) -> None:
        try:
            self.heard(payload)
        except Exception:
            log.exception("a notification of %s was not handled: %r", self.channel, payload)

    def _tell_listening(self, again: bool) -> None:
        try:
            self.listening(again)
        except Exception:
            log.exception("listening for %s: the catch-up failed", self.channel)
