"""How the bot stops (DiceBot.close), in the order that loses nothing: the health check
first, then the games' changes in progress committed and shown, the reviews stored, the
answers on their way delivered; the gateway and the HTTP session after them, and the
database last."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.app.answering import answers_in_flight

if TYPE_CHECKING:
    from bot.app.client import DiceBot

log = logging.getLogger(__name__)

REVIEWS_AT_SHUTDOWN_SECONDS = 5.0  # inside a container's 10 s stop grace
PINGS_AT_SHUTDOWN_SECONDS = 5.0


async def shut_down(bot: DiceBot, close_discord: Callable[[], Awaitable[None]]) -> None:
    """Stop the gateway, let changes in progress commit, then close the database.
    `close_discord`: discord.py's own close (the gateway and the HTTP session)."""
    log.info("shutting down")
    if bot.health is not None:
        # First, so no probe is told "healthy" by a bot that is going away.
        await bot.health.stop()
        bot.health = None
    if bot.heartbeat is not None:
        bot.heartbeat.cancel()
    if bot.table is not None:
        # Before the sessions close: every tab is told the server goes away (1012) and
        # reconnects, to the next process; the actions under way are committed first.
        await bot.table.stop()
        bot.table = None
    sessions = getattr(bot, "sessions", None)
    if sessions is not None:
        await sessions.close()
    platform = getattr(bot, "platform", None)
    if platform is not None:
        # The reviews of games just ended: stored before the database closes, and a
        # practice game's sent before the HTTP session closes.
        await platform.reviews.close(timeout=REVIEWS_AT_SHUTDOWN_SECONDS)
        # The pings of the last changes, briefly: a ping posted but not recorded
        # would be left in the channel.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(platform.live.pings_done(), timeout=PINGS_AT_SHUTDOWN_SECONDS)
        platform.pings.close()  # those waiting for a rate limit: the next start
    # Answers on their way (a command or a click being answered as the signal came,
    # a score page, say): let them arrive before the HTTP session closes under them.
    await answers_in_flight()
    if bot.emoji_sync is not None and not bot.emoji_sync.done():
        bot.emoji_sync.cancel()
    bot.starting.cancel()
    bot.gc_pauses.remove()
    for name in ("startup_repair", "ping_cleanup"):
        task = getattr(bot, name, None)
        if task is not None and not task.done():
            task.cancel()
    await close_discord()
    if bot.gateway_sessions is not None:
        bot.gateway_sessions.close()
    if bot.inflight is not None:
        bot.inflight.close()
    db = getattr(bot, "db", None)
    if db is not None:
        await db.close()
    log.info("shut down cleanly")
