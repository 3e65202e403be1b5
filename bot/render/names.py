"""Players' names in messages: clipped, unable to break the markdown or ping anyone, and
isolated when written right to left (bot.i18n.bidi)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

import discord

from bot.i18n.bidi import isolate
from bot.render.plain_text import is_plain

if TYPE_CHECKING:
    from bot.sessions.model import Seat

MAX_NAME = 32

Namer = Callable[[str], str]  # player id -> display name


def safe_name(name: str) -> str:
    """A display name that cannot break the message's markdown nor the order of the line
    around it, at most 32 characters; written for a page (bot.render.plain_text), the
    name as given, isolated and clipped the same way."""
    if is_plain():
        return _plain_name(name)
    return _markdown_name(name)


@lru_cache(maxsize=4096)
def _markdown_name(name: str) -> str:
    # Remembered: every message draws the same few names, each a few regex passes.
    return isolate(discord.utils.escape_markdown(discord.utils.escape_mentions(_clipped(name))))


@lru_cache(maxsize=4096)
def _plain_name(name: str) -> str:
    return isolate(_clipped(name))


def _clipped(name: str) -> str:
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def namer(seats: Iterable[Seat]) -> Namer:
    """Names as messages show them, a computer player as `🤖 Pip (Easy)` (pass the result
    through safe_name before it goes into markdown)."""
    shown = {seat.player_id: (f"🤖 {seat.name}" if seat.is_bot else seat.name) for seat in seats}
    return lambda player: shown.get(player, player)
