"""Where an activity instance is played, as a session records it (bot.sessions.model's
Place): what the bot's own token may do there decides whether a lobby opened at the
table is also posted in the chat."""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.sessions.model import Place
from bot.table.actions import Where
from bot.table.identity import Instance


def where_played(
    client: discord.Client, owns_guild: Callable[[int], bool]
) -> Callable[[Instance], Where]:
    """`Where` of an instance: a server the bot is in (or whose shard another process
    runs), a server where only people installed the app, the bot's DM with someone (a
    DM channel this process knows), or else a group DM or a DM between people."""

    def where(instance: Instance) -> Where:
        guild_id = instance.guild_id
        if guild_id is None:
            known = client.get_channel(instance.channel_id)
            bot_dm = isinstance(known, discord.DMChannel)
            return Where(0, Place.BOT_DM if bot_dm else Place.GROUP_DM)
        if not owns_guild(guild_id) or client.get_guild(guild_id) is not None:
            return Where(guild_id, Place.SERVER)
        return Where(guild_id, Place.SERVER_WITHOUT_BOT)

    return where
