"""Channels where Discord refused the bot's token (403: a permission was taken away).

Clicks and their answers need no channel permission, so the game goes on there; what the
bot does with its token (turn pings, reminders, edits through the channel) waits instead
of drawing a 403 at every change (Discord bans a bot at 10,000 invalid requests in ten
minutes). A click whose `app_permissions` shows what the bot needs again resumes it.
"""

from __future__ import annotations

import logging

from bot.sessions.errors import MessageUnreachable

log = logging.getLogger(__name__)


class ChannelPaused(MessageUnreachable):
    """The bot's token work waits in this channel (a publish that needs it fails with this,
    and the message is shown again once the channel resumes)."""


class PausedChannels:
    def __init__(self) -> None:
        self._paused: set[int] = set()

    def __contains__(self, channel_id: object) -> bool:
        return channel_id in self._paused

    def pause(self, channel_id: int, why: object) -> None:
        if channel_id not in self._paused:
            log.warning("channel %s: the bot's token was refused (%s); pausing", channel_id, why)
        self._paused.add(channel_id)

    def resume(self, channel_id: int) -> bool:
        """The permissions are back; whether the channel was paused."""
        if channel_id not in self._paused:
            return False
        self._paused.discard(channel_id)
        log.info("channel %s: the bot's permissions are back; resuming", channel_id)
        return True
