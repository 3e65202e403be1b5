"""What the bot's own token needs in a game's channel, what an interaction says it lacks
there, and the words for it.

Interactions need no channel permission: a slash command is answered and a click is
applied whatever the channel lets the bot do. Everything the bot does with its token
does: turn pings and reminders (a new message: Send Messages, in a thread Send Messages
in Threads), the edits of the live message through the channel (the turn timer,
computer players, repairs), the pictures it uploads (the end picture: Attach Files), its
embeds (Embed Links), and to reach the channel and its messages at all, View Channel and
Read Message History. Discord refuses what the bot may not do with 50001 Missing Access
or 50013 Missing Permissions, long after the game began; but it sends the bot's
permissions in the channel with every interaction (`app_permissions`), so a start is
refused before a game depends on them, and a click tells the clicker when one was taken
away mid-game.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.sessions.errors import SessionError
from bot.sessions.model import Place
from bot.ui.places import check_place, place_of

Interaction = discord.Interaction[Any]

# What the bot needs, by discord.Permissions flag name, in the order the words list them.
IN_CHANNEL = (
    "view_channel",
    "send_messages",
    "embed_links",
    "attach_files",
    "read_message_history",
)
IN_THREAD = tuple(
    "send_messages_in_threads" if name == "send_messages" else name for name in IN_CHANNEL
)
# The key of each one's name, as Discord's client shows it in each language.
NAME_KEYS = {
    "view_channel": "permissions.name.view_channel",
    "send_messages": "permissions.name.send_messages",
    "send_messages_in_threads": "permissions.name.send_messages_in_threads",
    "embed_links": "permissions.name.embed_links",
    "attach_files": "permissions.name.attach_files",
    "read_message_history": "permissions.name.read_message_history",
}


def needed(*, in_thread: bool) -> discord.Permissions:
    """The permissions the bot needs in a channel, or in a thread."""
    return discord.Permissions(**dict.fromkeys(IN_THREAD if in_thread else IN_CHANNEL, True))


# What the invite link asks for: enough for any channel and any thread.
INVITE = needed(in_thread=False) | needed(in_thread=True)


def missing(granted: discord.Permissions, *, in_thread: bool) -> tuple[str, ...]:
    """The needed permissions `granted` lacks, by flag name, in the order of the words."""
    return tuple(
        name for name in (IN_THREAD if in_thread else IN_CHANNEL) if not getattr(granted, name)
    )


def missing_here(interaction: Interaction) -> tuple[str, ...]:
    """What the bot lacks in the interaction's channel (a thread needs Send Messages in
    Threads instead of Send Messages). Nothing when Discord did not say: discord.py reads
    a payload without `app_permissions` (older ones) as 0, and a bot with no permission at
    all is indistinguishable from that, so 0 is taken as unknown rather than refused.
    Nothing outside a server the bot is in: there its token is not used (bot.ui.places),
    and `app_permissions` are the person's own."""
    if place_of(interaction) is not Place.SERVER:
        return ()
    granted = interaction.app_permissions
    if granted.value == 0:
        return ()
    return missing(granted, in_thread=isinstance(interaction.channel, discord.Thread))


def permission_lines(names: tuple[str, ...]) -> str:
    """The permissions as Discord's client names them in the language in force, a line each."""
    return "\n".join(f"- **{t(NAME_KEYS[name])}**" for name in names)


class BotLacksPermissions(SessionError):
    """A game would start in a channel where the bot cannot do its part."""

    key = "permissions.refused"


def check_can_open(interaction: Interaction) -> None:
    """Refuse to open a lobby where the bot lacks what a game needs (BotLacksPermissions,
    naming them), or where the table could not see it (bot.ui.places.check_place); say
    nothing when it has them, or when Discord did not say."""
    check_place(interaction, place_of(interaction))
    lacking = missing_here(interaction)
    if lacking:
        raise BotLacksPermissions(permissions=permission_lines(lacking))


class LostPermissions:
    """Who has been told that the bot lost permissions in a channel mid-game: each person
    once per channel for each set of missing permissions, until a click there shows them
    granted again (then the channel is forgotten, and a later loss is told anew)."""

    def __init__(self) -> None:
        self._told: dict[int, set[tuple[int, tuple[str, ...]]]] = {}  # channel -> (user, set)

    def to_tell(self, interaction: Interaction) -> tuple[str, ...]:
        """What to tell the clicker is missing (nothing: nothing to say), marked as told."""
        channel_id, user_id = interaction.channel_id, interaction.user.id
        if channel_id is None:
            return ()
        lacking = missing_here(interaction)
        if not lacking:
            self._told.pop(channel_id, None)
            return ()
        told = self._told.setdefault(channel_id, set())
        if (user_id, lacking) in told:
            return ()
        told.add((user_id, lacking))
        return lacking

    def forget(self, interaction: Interaction, lacking: tuple[str, ...]) -> None:
        """The notice could not be sent: the next click may try again."""
        if interaction.channel_id is not None:
            self._told.get(interaction.channel_id, set()).discard((interaction.user.id, lacking))


def lost_notice(lacking: tuple[str, ...]) -> str:
    """The follow-up to a click where the bot lacks `lacking`: the game goes on."""
    return t("permissions.lost", permissions=permission_lines(lacking))
