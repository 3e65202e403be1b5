"""The application emojis: the games' pictures uploaded where Discord lacks them, in the
background at start-up and again whenever Discord refuses one of them."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.pictures.emojis import EmojiBook, SyncResult
from bot.render.emoji import stored_markup, use_book
from bot.storage.meta import APPLICATION_EMOJIS, set_meta

if TYPE_CHECKING:
    from bot.app.client import DiceBot

log = logging.getLogger(__name__)


async def sync_emojis(bot: DiceBot) -> SyncResult | None:
    """The games' pictures uploaded as application emojis where Discord lacks them, and
    the messages' markup switched to them; None if that failed (Unicode stays)."""
    # Drawing the pictures holds the GIL: after the replay, and after the tables'
    # thread, so that the loop competes with one such thread at a time.
    await bot.caught_up.wait()
    await asyncio.wait({bot.warming})
    try:
        sets = [await asyncio.to_thread(g.emojis) for g in bot.games if g.emojis is not None]
        book = EmojiBook(*sets)
        # The application id is known once logged in (setup_hook runs after login).
        result = await book.sync(bot)
    except Exception:  # a picture bug must not take the bot down: Unicode stays
        log.exception("emoji sync failed; messages show Unicode")
        return None
    use_book(book)
    markup = stored_markup(book.synced(), bot.application_id)
    await set_meta(bot.db, APPLICATION_EMOJIS, markup)
    log.info(
        "application emojis: %d found, %d uploaded, %d missing",
        len(result.found),
        len(result.uploaded),
        len(result.missing),
    )
    return result
