"""Interaction payloads as Discord's gateway delivers them, for driving the bot without a
server: a benchmark and the in-process test harness hand them to discord.py's
`parse_interaction_create` themselves.

One guild, one application; users and channels are plain snowflakes the caller picks.
"""

from __future__ import annotations

from typing import Any

APPLICATION_ID = 900_000_000_000_000_001
GUILD_ID = 800_000_000_000_000_001
IT_COMMAND, IT_COMPONENT = 2, 3  # interaction types
BUTTON = 2  # component type
TEXT_CHANNEL, PUBLIC_THREAD = 0, 11  # channel types
# View channel, send messages, read history, use application commands.
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)
ALL_PERMISSIONS = (1 << 53) - 1
TIMESTAMP = "2026-01-01T00:00:00.000000+00:00"


def user_payload(user_id: int, name: str | None = None) -> dict[str, Any]:
    """A user; without a name, `player<last five digits of the id>`."""
    name = name or f"player{user_id % 100_000}"
    return {
        "id": str(user_id),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
    }


def member_payload(
    user_id: int, name: str | None = None, permissions: int = MEMBER_PERMISSIONS
) -> dict[str, Any]:
    """The guild member behind an interaction (its resolved channel permissions)."""
    return {
        "user": user_payload(user_id, name),
        "nick": None,
        "roles": [],
        "joined_at": TIMESTAMP,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": str(permissions),
    }


def channel_payload(
    channel_id: int,
    *,
    name: str = "dice-games",
    position: int = 0,
    thread_of: int | None = None,
    owner_id: int | None = None,
) -> dict[str, Any]:
    """A server text channel, or with `thread_of` a public thread in that channel."""
    channel: dict[str, Any] = {
        "id": str(channel_id),
        "type": TEXT_CHANNEL if thread_of is None else PUBLIC_THREAD,
        "guild_id": str(GUILD_ID),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None if thread_of is None else str(thread_of),
    }
    if thread_of is not None:
        channel["thread_metadata"] = {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": TIMESTAMP,
            "locked": False,
        }
        channel["owner_id"] = str(owner_id)
        channel["message_count"] = 0
        channel["member_count"] = 1
    return channel


def interaction_payload(
    user_id: int,
    kind: int,
    channel_id: int,
    token: str,
    serial: int,
    *,
    interaction_id: int | None = None,
    channel: dict[str, Any] | None = None,
    member: dict[str, Any] | None = None,
    locale: str = "en-US",
    app_permissions: int | str | None = ALL_PERMISSIONS,
) -> dict[str, Any]:
    """An INTERACTION_CREATE, as the gateway delivers it: by default in a server text
    channel, from a member with the usual permissions, with an id derived from `serial`.
    `app_permissions` is what the bot may do in the channel (a string as it stands, None
    leaves the field out as older payloads did)."""
    if interaction_id is None:
        interaction_id = 500_000_000_000_000_000 + serial
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(APPLICATION_ID),
        "type": kind,
        "token": token,
        "version": 1,
        "guild_id": str(GUILD_ID),
        "guild": {"id": str(GUILD_ID), "locale": "en-US", "features": []},
        "channel_id": str(channel_id),
        "channel": channel if channel is not None else channel_payload(channel_id),
        "member": member if member is not None else member_payload(user_id),
        "app_permissions": str(app_permissions),
        "locale": locale,
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(GUILD_ID)},
        "context": 0,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if app_permissions is None:
        del payload["app_permissions"]
    return payload


def start_command(group: str, user_id: int, channel_id: int, serial: int) -> dict[str, Any]:
    """/<group> start turn_timer:0 (`group` a game's command, e.g. "picker")"""
    payload = interaction_payload(
        user_id, IT_COMMAND, channel_id, f"{channel_id}.0.{serial}", serial
    )
    option = {"name": "turn_timer", "type": 4, "value": 0}
    payload["data"] = {
        "id": str(APPLICATION_ID + 1),
        "name": group,
        "type": 1,
        "options": [{"name": "start", "type": 1, "options": [option]}],
    }
    return payload


def click_payload(
    user_id: int, message: dict[str, Any], custom_id: str, serial: int
) -> dict[str, Any]:
    """A button click on `message` (as Discord returned it) by `user_id`."""
    channel_id = int(message["channel_id"])
    token = f"{channel_id}.{message['id']}.{serial}"
    payload = interaction_payload(user_id, IT_COMPONENT, channel_id, token, serial)
    payload["message"] = message
    payload["data"] = {"custom_id": custom_id, "component_type": BUTTON}
    return payload


def message_payload(
    message_id: int, channel_id: int, author: dict[str, Any], data: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    """A message as Discord returns it after a send, built from the fields the bot sent
    (`data`); `extra` adds or replaces fields (attachments, interaction metadata)."""
    return {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "guild_id": str(GUILD_ID),
        "author": author,
        "content": data.get("content") or "",
        "embeds": data.get("embeds") or [],
        "components": data.get("components") or [],
        "flags": int(data.get("flags") or 0),
        "type": 0,
        "timestamp": TIMESTAMP,
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "pinned": False,
        **extra,
    }
