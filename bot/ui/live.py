"""The live message: shown as an interaction reply or edited in place, one per channel.

Also the session listener: changes nobody clicked for (the turn timer, a computer
player's step) edit the live message through the channel, and the half-time reminder
pings the player.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

import discord

from bot.games.registry import plugin
from bot.i18n import t, with_locale
from bot.render.layout import Rendered
from bot.render.session_message import render_frozen, render_session
from bot.sessions.model import Session
from bot.sessions.service import Change
from bot.ui.components import view_for

log = logging.getLogger(__name__)


def jump_url(session: Session) -> str:
    channel = f"https://discord.com/channels/{session.guild_id}/{session.channel_id}"
    return channel if session.message_id is None else f"{channel}/{session.message_id}"


def rendered(session: Session) -> Rendered:
    """The live message, in the game's language whoever clicked (ephemeral answers are
    in the clicker's own)."""
    with with_locale(session.language):
        return render_session(session, plugin(session.kind))


async def reply_new(interaction: discord.Interaction[Any], session: Session) -> int | None:
    """Answer with the live message as a new message; return its id."""
    message = rendered(session)
    callback = await interaction.response.send_message(
        embed=message.embed, view=view_for(message.layout) or discord.utils.MISSING
    )
    return callback.message_id if callback is not None else None


async def reply_edit(interaction: discord.Interaction[Any], session: Session) -> None:
    """Answer a click by editing the message it was made on (no message-edit rate limit)."""
    message = rendered(session)
    await interaction.response.edit_message(embed=message.embed, view=view_for(message.layout))


class LiveMessages:
    """Edits through the channel for updates that are not an answer to a click."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def _message(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        return self.client.get_partial_messageable(channel_id).get_partial_message(message_id)

    async def edit(self, session: Session) -> None:
        if session.message_id is None:
            return
        message = rendered(session)
        await self._message(session.channel_id, session.message_id).edit(
            embed=message.embed, view=view_for(message.layout)
        )

    async def freeze(self, session: Session, message_id: int | None) -> None:
        """Take the buttons off an older copy, so only the live message has any."""
        if message_id is None or message_id == session.message_id:
            return
        try:
            with with_locale(session.language):
                frozen = render_frozen(session, plugin(session.kind))
            await self._message(session.channel_id, message_id).edit(embed=frozen.embed, view=None)
        except discord.HTTPException as error:
            # Deleted, or too old to edit: its buttons are refused as stale anyway.
            log.info("could not freeze message %s: %s", message_id, error)

    async def strip_buttons(self, channel_id: int, message_id: int | None) -> None:
        """Remove the buttons of an ended game's message (after Play again)."""
        if message_id is None:
            return
        try:
            await self._message(channel_id, message_id).edit(view=None)
        except discord.HTTPException as error:
            log.info("could not strip buttons of %s: %s", message_id, error)

    # ----------------------------------------------------------- SessionListener

    async def session_changed(self, change: Change) -> None:
        await self.edit(change.session)

    async def turn_reminder(self, session: Session, user_id: int) -> None:
        deadline = session.deadline
        when = (
            discord.utils.format_dt(dt.datetime.fromtimestamp(deadline, dt.UTC), "R")
            if deadline is not None
            else ""
        )
        channel = self.client.get_partial_messageable(session.channel_id)
        with with_locale(session.language):
            game = plugin(session.kind).title
            text = t("timer.reminder", mention=f"<@{user_id}>", when=when, game=game)
        await channel.send(
            text,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
        )
