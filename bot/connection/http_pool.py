"""The bot's connections to Discord's HTTP API: a pool that lets go of what a burst opened.

aiohttp reuses the oldest idle keep-alive connection first (since 3.11, aio-libs/aiohttp
pull request 9672, where the reviewers asked whether connections would stop closing).
They do: once a burst has opened more connections than the steady traffic needs, every
one of them is used again within its keep-alive time, and none is ever closed. A bot
process restarted at 1,000 games answered the clicks and repairs it found waiting all at
once, and kept the 215 connections that burst opened for the rest of the run, where 67
had served it before (`benchmarks/bench_soak.py`, docs/SCALING.md).

Reusing the newest idle connection first, as aiohttp did before, leaves the surplus
idle, and aiohttp's own cleanup closes each after `keepalive_timeout` (15 s), so the pool
follows the traffic down as well as up. discord.py makes its connector with `limit=0`
(no cap on connections at once); so does this one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import aiohttp

if TYPE_CHECKING:
    from aiohttp.client_proto import ResponseHandler
    from aiohttp.client_reqrep import ConnectionKey


class NewestFirstConnector(aiohttp.TCPConnector):
    """A TCPConnector that reuses the connection given back last (aiohttp: the oldest)."""

    def _release(
        self, key: ConnectionKey, protocol: ResponseHandler, *, should_close: bool = False
    ) -> None:
        super()._release(key, protocol, should_close=should_close)
        idle = self._conns.get(key)
        # aiohttp appends a connection given back and takes the next from the left: the
        # newest is moved there, and the oldest are left to idle out.
        if idle and idle[-1][0] is protocol:
            idle.appendleft(idle.pop())


def discord_connector() -> NewestFirstConnector:
    """The connector for the bot's HTTP session (made inside the running event loop)."""
    return NewestFirstConnector(limit=0)
