"""Players' names in messages: clipped, unable to break the markdown or ping anyone, and
isolated when written right to left (bot.i18n.bidi)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

import discord

from bot.i18n.bidi import isolate

if TYPE_CHECKING:
    from bot.sessions.model import Seat

MAX_NAME = 32

Namer = Callable[[str], str]  # player id -> display name


@lru_cache(maxsize=4096)
def safe_name(name: str) -> str:
    """A display name that cannot break the message's markdown nor the order of the line
    around it, at most 32 characters (remembered: every message draws the same few
    names, each a few regex passes)."""
    clipped = name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
    return isolate(discord.utils.escape_markdown(discord.utils.escape_mentions(clipped)))


def namer(seats: Iterable[Seat]) -> Namer:
    """Names as messages show them, a computer player as `🤖 Pip (Easy)` (pass the result
    through safe_name before it goes into markdown)."""
    shown = {seat.player_id: (f"🤖 {seat.name}" if seat.is_bot else seat.name) for seat in seats}
    return lambda player: shown.get(player, player)
