"""Running a discord.py client against the stand-in, in this process."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from bot.devserver.standin.errors import FakeDiscordTimeout
from bot.devserver.standin.server import FakeDiscord


@contextlib.asynccontextmanager
async def running_client(fake: FakeDiscord, client: Any, *, timeout: float = 10.0) -> AsyncIterator:
    """Log ``client`` in to ``fake``, connect it, wait for on_ready; close it all on exit.

    The endpoint overrides are applied here; restoring discord.py's globals afterwards is
    the job of the ``discord_globals`` fixture.
    """
    from bot.connection.endpoints import apply_endpoint_overrides

    apply_endpoint_overrides(fake.api_base, fake.gateway_url)
    task: asyncio.Task[None] | None = None
    try:
        await asyncio.wait_for(client.login(fake.token), timeout)
        task = asyncio.create_task(client.connect(reconnect=True), name="fake-discord-client")
        ready = asyncio.ensure_future(client.wait_until_ready())
        done, _ = await asyncio.wait({ready, task}, timeout=timeout, return_when="FIRST_COMPLETED")
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raise what stopped the client
            raise FakeDiscordTimeout(f"the client was not ready within {timeout}s")
        yield client
    finally:
        await asyncio.wait_for(client.close(), timeout)
        if task is not None:
            # connect() returns soon after close(), unless it sleeps before a reconnect
            # (the stand-in went away first): then it is cancelled.
            done, _ = await asyncio.wait({task}, timeout=1.0)
            if task in done:
                task.result()  # re-raise whatever stopped the client
            else:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
