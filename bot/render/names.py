"""Players' names in messages: clipped, and unable to break the markdown or ping anyone."""

from __future__ import annotations

from collections.abc import Callable

import discord

MAX_NAME = 32

Namer = Callable[[str], str]  # player id -> display name


def safe_name(name: str) -> str:
    """A display name that cannot break the message's markdown, at most 32 characters."""
    clipped = name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
    return discord.utils.escape_markdown(discord.utils.escape_mentions(clipped))
