"""Discord's permissions: the bits, what the stand-in's roles are given, a channel's
permission overwrites, and a member's permissions in a channel computed from them as
Discord computes them."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

PERM_CREATE_INSTANT_INVITE = 1 << 0
PERM_ADMINISTRATOR = 1 << 3
PERM_ADD_REACTIONS = 1 << 6
PERM_VIEW_CHANNEL = 1 << 10
PERM_SEND_MESSAGES = 1 << 11
PERM_SEND_TTS_MESSAGES = 1 << 12
PERM_MANAGE_MESSAGES = 1 << 13
PERM_EMBED_LINKS = 1 << 14
PERM_ATTACH_FILES = 1 << 15
PERM_READ_MESSAGE_HISTORY = 1 << 16
PERM_MENTION_EVERYONE = 1 << 17
PERM_USE_EXTERNAL_EMOJIS = 1 << 18
PERM_CONNECT = 1 << 20
PERM_SPEAK = 1 << 21
PERM_CHANGE_NICKNAME = 1 << 26
PERM_USE_APPLICATION_COMMANDS = 1 << 31
PERM_SEND_MESSAGES_IN_THREADS = 1 << 38
PERM_USE_EXTERNAL_APPS = 1 << 50
ALL_PERMISSIONS = (1 << 53) - 1
EVERYONE_PERMISSIONS = (
    PERM_CREATE_INSTANT_INVITE
    | PERM_ADD_REACTIONS
    | PERM_VIEW_CHANNEL
    | PERM_SEND_MESSAGES
    | PERM_EMBED_LINKS
    | PERM_ATTACH_FILES
    | PERM_READ_MESSAGE_HISTORY
    | PERM_USE_EXTERNAL_EMOJIS
    | PERM_CONNECT
    | PERM_SPEAK
    | PERM_CHANGE_NICKNAME
    | PERM_USE_APPLICATION_COMMANDS
    | PERM_SEND_MESSAGES_IN_THREADS
)
BOT_ROLE_PERMISSIONS = (
    PERM_VIEW_CHANNEL
    | PERM_SEND_MESSAGES
    | PERM_EMBED_LINKS
    | PERM_READ_MESSAGE_HISTORY
    | PERM_USE_EXTERNAL_EMOJIS
    | PERM_ADD_REACTIONS
    | PERM_SEND_MESSAGES_IN_THREADS
)

# An app's permissions in a DM or group DM it is used in (interactions' app_permissions).
# receiving-and-responding.mdx, footnote of app_permissions: "includes ATTACH_FILES |
# EMBED_LINKS | MENTION_EVERYONE permissions for (G)DMs with other users, and additionally
# includes USE_EXTERNAL_EMOJIS for DMs with the app's bot user"; besides these, what any
# participant of a DM may do: see it, post, read its history, react.
PRIVATE_CHANNEL_APP_PERMISSIONS = (
    PERM_VIEW_CHANNEL
    | PERM_SEND_MESSAGES
    | PERM_READ_MESSAGE_HISTORY
    | PERM_ADD_REACTIONS
    | PERM_ATTACH_FILES
    | PERM_EMBED_LINKS
    | PERM_MENTION_EVERYONE
)
BOT_DM_APP_PERMISSIONS = PRIVATE_CHANNEL_APP_PERMISSIONS | PERM_USE_EXTERNAL_EMOJIS
# A person's own permissions in a DM or group DM (the channel's `permissions`): everything
# a participant does there, commands and external apps included.
PRIVATE_CHANNEL_USER_PERMISSIONS = (
    BOT_DM_APP_PERMISSIONS | PERM_USE_APPLICATION_COMMANDS | PERM_USE_EXTERNAL_APPS
)
# A server's @everyone by default: Discord's defaults let members use external apps.
BOTLESS_EVERYONE_PERMISSIONS = EVERYONE_PERMISSIONS | PERM_USE_EXTERNAL_APPS

# What a member without Send Messages in a text channel loses too (Discord's implicit
# permissions).
NEEDS_SEND_MESSAGES = (
    PERM_SEND_TTS_MESSAGES | PERM_MENTION_EVERYONE | PERM_EMBED_LINKS | PERM_ATTACH_FILES
)
THREAD_TYPES = frozenset({10, 11, 12})

OVERWRITE_ROLE, OVERWRITE_MEMBER = 0, 1


@dataclass(frozen=True)
class Overwrite:
    """A channel's permission overwrite for a role (the @everyone role has the guild's id)
    or a member."""

    id: int
    type: int  # OVERWRITE_ROLE or OVERWRITE_MEMBER
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, object]:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


def channel_permissions(
    base: int,
    *,
    member_id: int,
    roles: Collection[int],
    everyone_id: int,
    overwrites: Sequence[Overwrite],
    thread: bool = False,
) -> int:
    """A member's permissions in a channel: `base` (the member's roles, @everyone's
    included) with the channel's overwrites applied in Discord's order: @everyone's, then
    the member's roles' together, then the member's own; nothing without View Channel."""
    if base & PERM_ADMINISTRATOR:
        return ALL_PERMISSIONS
    perms = base
    for overwrite in overwrites:
        if overwrite.type == OVERWRITE_ROLE and overwrite.id == everyone_id:
            perms = (perms & ~overwrite.deny) | overwrite.allow
    allow = deny = 0
    for overwrite in overwrites:
        in_roles = overwrite.id in roles and overwrite.id != everyone_id
        if overwrite.type == OVERWRITE_ROLE and in_roles:
            allow |= overwrite.allow
            deny |= overwrite.deny
    perms = (perms & ~deny) | allow
    for overwrite in overwrites:
        if overwrite.type == OVERWRITE_MEMBER and overwrite.id == member_id:
            perms = (perms & ~overwrite.deny) | overwrite.allow
    if not perms & PERM_VIEW_CHANNEL:
        return 0
    if not thread and not perms & PERM_SEND_MESSAGES:
        perms &= ~NEEDS_SEND_MESSAGES
    return perms
