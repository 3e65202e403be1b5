"""Where an interaction comes from, as far as the bot's own token is concerned.

The app can be installed to a server (the bot is a member and its token works in the
server's channels) or to a person's account (user install: its commands then work in
every server, DM and group DM of theirs). Discord tells which installations an
interaction was authorized by (`authorizing_integration_owners`: "0", the server install,
with the guild's id, or "0" in the bot's own DM; "1", the user install, with the
person's id) and where it was made (`context`: 0 a server, 1 the bot's DM, 2 a group DM
or a DM between people). Where only a person installed the app, and in every group DM,
the bot's token can do nothing in the channel: everything goes through interactions.

A user-installed app must also respect the person's own permissions: where a server has
switched Use External Apps off (or the person may not send messages there), Discord
forces its answers ephemeral, so a game everyone can see cannot be opened.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.sessions.errors import SessionError
from bot.sessions.model import Place

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

GUILD_INSTALL = 0  # Discord's application integration types
USER_INSTALL = 1
# Allows user-installed apps to send public responses (Discord's permissions, 1 << 50).
USE_EXTERNAL_APPS = 1 << 50
# Channels a game is served in where only the person installed the app: text channels,
# announcements and threads, DMs and group DMs. A voice channel's chat, a stage, a forum
# or a media channel are not: their messages are not where a table would look.
SERVED_CHANNEL_TYPES = frozenset(
    {
        discord.ChannelType.text.value,
        discord.ChannelType.private.value,
        discord.ChannelType.group.value,
        discord.ChannelType.news.value,
        discord.ChannelType.news_thread.value,
        discord.ChannelType.public_thread.value,
        discord.ChannelType.private_thread.value,
    }
)


def integration_owners(interaction: Interaction) -> dict[int, int]:
    """`authorizing_integration_owners` as discord.py read it (installation type ->
    guild or user id). discord.py keeps it private; an unknown key is kept as it came."""
    owners = getattr(interaction, "_integration_owners", None)
    return dict(owners) if isinstance(owners, dict) else {}


def place_of(interaction: Interaction) -> Place:
    """Where the interaction was made, and so what the bot's own token may do there."""
    owners = integration_owners(interaction)
    unknown = set(owners) - {GUILD_INSTALL, USER_INSTALL}
    if unknown:
        log.warning(
            "interaction %s: unknown installation types %s in authorizing_integration_owners",
            interaction.id,
            sorted(unknown),
        )
    if interaction.guild_id is not None:
        # A payload with no owners at all (Discord's before user installs) is a server install.
        if not owners or owners.get(GUILD_INSTALL) == interaction.guild_id:
            return Place.SERVER
        return Place.SERVER_WITHOUT_BOT
    if interaction.context.dm_channel or GUILD_INSTALL in owners:
        return Place.BOT_DM  # the guild install's owner is "0" in the bot's own DM
    if interaction.context.private_channel or isinstance(interaction.channel, discord.GroupChannel):
        return Place.GROUP_DM
    if isinstance(interaction.channel, discord.DMChannel):
        return Place.BOT_DM  # a payload without `context`: DMs were the bot's own then
    # Nothing says the bot can reach this channel: interactions alone, to be safe.
    return Place.GROUP_DM


def guild_id_of(interaction: Interaction) -> int:
    """The guild id a session stores: the server's, or 0 in a DM or group DM (whose
    events Discord sends to shard 0, so the sharded processes agree on the owner)."""
    return interaction.guild_id or 0


class ChannelNotServed(SessionError):
    """A user-installed app's command in a channel a game is not played in."""

    key = "place.not_served"


class PublicAnswersRefused(SessionError):
    """Discord would force every answer here ephemeral: nobody else could see the game."""

    key = "place.ephemeral_only"


def check_place(interaction: Interaction, place: Place) -> None:
    """Refuse to open a game where the table could not see it (PublicAnswersRefused) or
    in a channel we do not serve (ChannelNotServed); each is logged for the admin."""
    if place is not Place.SERVER_WITHOUT_BOT:
        return
    channel_type = getattr(getattr(interaction, "channel", None), "type", None)
    type_value = getattr(channel_type, "value", channel_type)
    if isinstance(type_value, int) and type_value not in SERVED_CHANNEL_TYPES:
        log.warning(
            "interaction %s: a user install in channel %s of type %s, which is not served",
            interaction.id,
            interaction.channel_id,
            type_value,
        )
        raise ChannelNotServed()
    if not public_answers_allowed(interaction):
        log.info(
            "interaction %s: answers would be ephemeral in channel %s (Use External Apps off?)",
            interaction.id,
            interaction.channel_id,
        )
        raise PublicAnswersRefused()


def public_answers_allowed(interaction: Interaction) -> bool:
    """Whether a user-installed app's answers may be public here. Discord sends the
    app's permissions as the person's own where only they installed it: without Use
    External Apps, or without Send Messages (in a thread, in Threads), Discord makes
    every answer ephemeral. 0 means Discord did not say: nothing is refused."""
    granted = interaction.app_permissions
    if granted.value == 0:
        return True
    in_thread = isinstance(interaction.channel, discord.Thread)
    may_send = granted.send_messages_in_threads if in_thread else granted.send_messages
    return bool(granted.value & USE_EXTERNAL_APPS) and may_send


def guard_interaction_payloads(client: discord.Client) -> None:
    """Keep an interaction whose `authorizing_integration_owners` holds a key or value
    that is not a number (discord.py reads both as ints and would fail on the whole
    interaction, unanswered, with a traceback): such an entry is dropped with a warning,
    and the interaction is served as if it said nothing of that installation."""
    parsers = getattr(client._connection, "parsers", None)
    parse = parsers.get("INTERACTION_CREATE") if isinstance(parsers, dict) else None
    if parsers is None or parse is None:
        log.warning("discord.py has no INTERACTION_CREATE parser to guard")
        return

    def parse_interaction(data: dict[str, Any]) -> None:
        owners = data.get("authorizing_integration_owners")
        if owners is not None:
            data["authorizing_integration_owners"] = known_owners(owners, data.get("id"))
        parse(data)

    parsers["INTERACTION_CREATE"] = parse_interaction


def known_owners(owners: object, interaction_id: object) -> dict[str, str]:
    """The entries of `authorizing_integration_owners` that discord.py can read."""
    if not isinstance(owners, dict):
        log.warning(
            "interaction %s: authorizing_integration_owners is not an object", interaction_id
        )
        return {}
    kept = {
        key: value for key, value in owners.items() if str(key).isdigit() and str(value).isdigit()
    }
    if len(kept) != len(owners):
        log.warning(
            "interaction %s: authorizing_integration_owners entries not understood: %s",
            interaction_id,
            {key: value for key, value in owners.items() if key not in kept},
        )
    return kept
