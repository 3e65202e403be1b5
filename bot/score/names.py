"""How the score pages name people and the server."""

from __future__ import annotations

import discord

from bot.history.figures import NameOf
from bot.i18n import t
from bot.i18n.bidi import isolate


def name_resolver(guild: discord.Guild | None) -> NameOf:
    """Names as the score pages show them: the member's current display name when
    cached, else the name stored at game time (they may have left the server); a
    right-to-left name isolated so it keeps the line's order."""

    def name_of(user_id: int, stored: str) -> str:
        member = guild.get_member(user_id) if guild is not None else None
        name = member.display_name if member is not None else stored
        return isolate(discord.utils.escape_markdown(name))

    return name_of


def guild_title(guild: discord.Guild | None) -> str:
    name = guild.name if guild is not None else None
    return discord.utils.escape_markdown(name) if name else t("score.this_server")
