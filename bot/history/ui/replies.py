"""The one door from the score pages to the ephemeral replies: when the platform's error
funnel exists, the import below is the one line to change.

Imported at call time: `cogs.pickomino` imports the score pages itself, so importing it
at module level would be circular.
"""

from __future__ import annotations

from typing import Any

import discord


async def tell(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer only the asker, whether or not the interaction was answered already."""
    from cogs.pickomino import _replies

    await _replies.tell(interaction, text)


async def fail(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Something unexpected: logged, and the asker told politely."""
    from cogs.pickomino import _replies

    await _replies.fail(interaction, error)
