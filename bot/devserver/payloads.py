"""Interaction payloads as Discord's gateway delivers them, for driving the bot without a
server: a benchmark hands them to discord.py's `parse_interaction_create` itself.

One guild, one application; users and channels are plain snowflakes the caller picks.
"""

from __future__ import annotations

from typing import Any

APPLICATION_ID = 900_000_000_000_000_001
GUILD_ID = 800_000_000_000_000_001
IT_COMMAND, IT_COMPONENT = 2, 3  # interaction types
BUTTON, STRING_SELECT = 2, 3  # component types
# View channel, send messages, read history, use application commands.
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)
TIMESTAMP = "2026-01-01T00:00:00.000000+00:00"


def user_payload(user_id: int) -> dict[str, Any]:
    name = f"player{user_id % 100_000}"
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
    }


def interaction_payload(
    user_id: int, kind: int, channel_id: int, token: str, serial: int
) -> dict[str, Any]:
    """An INTERACTION_CREATE in a server text channel, as the gateway delivers it."""
    return {
        "id": str(500_000_000_000_000_000 + serial),
        "application_id": str(APPLICATION_ID),
        "type": kind,
        "token": token,
        "version": 1,
        "guild_id": str(GUILD_ID),
        "guild": {"id": str(GUILD_ID), "locale": "en-US", "features": []},
        "channel_id": str(channel_id),
        "channel": {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": "pickomino",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        },
        "member": {
            "user": user_payload(user_id),
            "nick": None,
            "roles": [],
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(MEMBER_PERMISSIONS),
        },
        "app_permissions": str((1 << 53) - 1),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(GUILD_ID)},
        "context": 0,
        "attachment_size_limit": 10 * 1024 * 1024,
    }


def start_command(user_id: int, channel_id: int, serial: int) -> dict[str, Any]:
    """/pickomino start turn_timer:0"""
    payload = interaction_payload(
        user_id, IT_COMMAND, channel_id, f"{channel_id}.0.{serial}", serial
    )
    option = {"name": "turn_timer", "type": 4, "value": 0}
    payload["data"] = {
        "id": str(APPLICATION_ID + 1),
        "name": "pickomino",
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
