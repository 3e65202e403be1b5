"""The last click on each channel's live message, while its interaction token lasts.

An interaction's token lets the bot edit the message the click was on for 15 minutes,
through the interaction webhook (`PATCH /webhooks/{application}/{token}/messages/@original`).
Those requests do not count against the bot's global rate limit (50 a second, shared by
every shard), and a computer player's steps or the turn timer edit the live message
often: they go through the last click's token while it is young enough, and through the
channel with the bot's token otherwise.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

TOKEN_LIFETIME_SECONDS = 15 * 60  # Discord's
# Stop using a token a little before Discord does: an edit in flight must not outlive it.
TOKEN_MARGIN_SECONDS = 60


@dataclass(frozen=True, slots=True)
class _Click:
    interaction: discord.Interaction[Any]
    message_id: int
    at: float


class ClickTokens:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last: dict[int, _Click] = {}  # channel id -> its last click on the live message

    def remember(self, channel_id: int, interaction: discord.Interaction[Any]) -> None:
        """A click on the channel's live message was answered (its token now edits it)."""
        if interaction.message is None:
            return
        self._last[channel_id] = _Click(interaction, interaction.message.id, self._clock())

    def usable(self, channel_id: int, message_id: int) -> discord.Interaction[Any] | None:
        """The interaction whose token may edit `message_id` now, if any."""
        click = self._last.get(channel_id)
        if click is None or click.message_id != message_id:
            return None
        if self._clock() - click.at > TOKEN_LIFETIME_SECONDS - TOKEN_MARGIN_SECONDS:
            del self._last[channel_id]
            return None
        return click.interaction

    def forget(self, channel_id: int) -> None:
        self._last.pop(channel_id, None)
