"""How the score pages name people and the place whose games they show: a server, or
outside one (a DM, a group DM) the chat, whose history is kept under its channel id."""

from __future__ import annotations

from typing import Any

import discord

from bot.history.figures import NameOf
from bot.history.models import Scope
from bot.i18n import t
from bot.i18n.bidi import isolate

Interaction = discord.Interaction[Any]


def community_of(interaction: Interaction) -> int:
    """The community whose history a score command or click reads: the server, or
    where there is none (a DM, a group DM) the chat, as `Session.community_id` records
    its games."""
    community = interaction.guild_id or interaction.channel_id
    if community is None:  # Discord sends a channel with every command and click
        raise ValueError("an interaction from neither a server nor a channel")
    return community


def scope_of(interaction: Interaction, user_id: int | None) -> Scope:
    """Whose games a page covers: in a server, the server's; outside one, the chat's,
    except the asker's own card and history, which cover every community they played
    in (a DM is nobody's server, and a person's record is theirs wherever earned)."""
    if interaction.guild_id is not None:
        return Scope.SERVER
    if user_id is not None and user_id == interaction.user.id:
        return Scope.EVERYWHERE
    return Scope.CHAT


def reads_from(interaction: Interaction, scope: Scope) -> int | None:
    """The community a ResultStore reads for `scope`: None for every community."""
    return None if scope is Scope.EVERYWHERE else community_of(interaction)


def name_resolver(guild: discord.Guild | None) -> NameOf:
    """Names as the score pages show them: the member's current display name when
    cached, else the name stored at game time (they may have left the server, or the
    page is outside a server, where there are no members); a right-to-left name
    isolated so it keeps the line's order."""

    def name_of(user_id: int, stored: str) -> str:
        member = guild.get_member(user_id) if guild is not None else None
        name = member.display_name if member is not None else stored
        return isolate(discord.utils.escape_markdown(name))

    return name_of


def place_title(interaction: Interaction) -> str:
    """The place in a title: the server's name, a group DM's own name, else "this
    server" or "this chat"."""
    guild = interaction.guild
    if interaction.guild_id is not None:
        name = guild.name if guild is not None else None
        return discord.utils.escape_markdown(name) if name else t("score.this_server")
    channel = interaction.channel
    if isinstance(channel, discord.GroupChannel) and channel.name:
        return discord.utils.escape_markdown(channel.name)
    return t("score.this_chat")
