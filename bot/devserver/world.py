"""The stand-in's world kept in a file, so `make play` finds its channels where they were
(the server's, group DMs and the servers without the bot among them).

The bot keeps its games in its own database; the messages that show them, the people,
the channels, the registered commands and the pictures live in the stand-in, and are
written here (JSON, atomically) a moment after each change and at shutdown. Ephemeral
messages are not kept, as Discord forgets them on a reload.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import json
import os
from pathlib import Path
from typing import Any

from bot.devserver.standin import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser

VERSION = 1
KEEP_MESSAGES = 200  # per channel: older ones are dropped from the file


def snapshot(fake: FakeDiscord) -> dict[str, Any]:
    messages: list[FakeMessage] = []
    botless = list(fake.botless_guilds.values())
    places = [
        *fake.guild_channels[fake.guild_id],
        *fake.private_channels.values(),
        *(channel for guild in botless for channel in guild.channels),
    ]
    for channel in places:
        messages += fake.channel_messages(channel.id)[-KEEP_MESSAGES:]
    attachment_ids = {int(a["id"]) for m in messages for a in m.attachments}
    return {
        "version": VERSION,
        "application_id": fake.application_id,
        "guild_id": fake.guild_id,
        "bot_role_id": fake.bot_role_id,
        "category_id": fake.category.id,
        "last_id": fake._snowflake._last,
        "users": [dataclasses.asdict(user) for user in fake.users.values()],
        "channels": [dataclasses.asdict(c) for c in fake.guild_channels[fake.guild_id]],
        # Added later: a world without them loads as one without such places.
        "private_channels": [dataclasses.asdict(c) for c in fake.private_channels.values()],
        "bot_dms": {str(user_id): c.id for user_id, c in fake._bot_dms.items()},
        "botless_guilds": [dataclasses.asdict(guild) for guild in botless],
        "messages": [_message(m) for m in messages],
        "commands": {str(scope): list(cmds.values()) for scope, cmds in fake.commands.items()},
        "emojis": list(fake.app_emojis.values()),
        "emoji_images": {name: _base64(data) for name, data in fake.emoji_images.items()},
        "files": {
            str(key): [kind, _base64(data)]
            for key, (kind, data) in fake.files.items()
            if key in attachment_ids
        },
    }


def _message(message: FakeMessage) -> dict[str, Any]:
    # Not dataclasses.asdict: it would deep-copy the edit history, hundreds of payloads
    # for a game's message, only to drop it.
    fields = dataclasses.fields(message)
    return {f.name: getattr(message, f.name) for f in fields if f.name != "history"}


@functools.lru_cache(maxsize=256)
def _base64(data: bytes) -> str:
    """Pictures never change once uploaded: each is encoded once."""
    return base64.b64encode(data).decode()


def save(fake: FakeDiscord, path: Path) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(snapshot(fake)), encoding="utf-8")
    os.replace(temporary, path)


def load(fake: FakeDiscord, path: Path) -> bool:
    """Restore a saved world into a fresh stand-in (before it starts); False if none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    if data.get("version") != VERSION:
        raise ValueError(f"{path} was written by another version; delete it to start afresh")
    restore(fake, data)
    return True


def restore(fake: FakeDiscord, data: dict[str, Any]) -> None:
    fake.application_id = int(data["application_id"])
    fake.bot_user.id = fake.application_id
    old_guild = fake.guild_id
    fake.guild_id = fake.everyone_role_id = int(data["guild_id"])
    fake.bot_role_id = int(data["bot_role_id"])
    fake.bot_user.roles = [fake.bot_role_id]
    fake.owner_id = fake.bot_user.id
    fake.category.id = int(data["category_id"])
    fake.users = {u["username"]: FakeUser(**u) for u in data["users"]}
    channels = [FakeChannel(**c) for c in data["channels"]]
    fake.channels = {c.id: c for c in channels}
    fake.channel = channels[0]
    fake.guild_ids = [fake.guild_id]
    fake.guild_names = {fake.guild_id: fake.guild_names.pop(old_guild)}
    fake.guild_channels = {fake.guild_id: channels}
    fake.private_channels = {}
    for raw_channel in data.get("private_channels", []):
        fake._add_private_channel(FakeChannel(**raw_channel))
    fake._bot_dms = {
        int(user_id): fake.channels[channel_id]
        for user_id, channel_id in data.get("bot_dms", {}).items()
    }
    fake.botless_guilds = {}
    for raw_guild in data.get("botless_guilds", []):
        guild = FakeGuild(**(raw_guild | {"channels": []}))
        guild.channels = [FakeChannel(**c) for c in raw_guild["channels"]]
        fake.botless_guilds[guild.id] = guild
        fake.channels.update((c.id, c) for c in guild.channels)
    for raw in data["messages"]:
        message = FakeMessage(**raw)
        fake._messages[message.id] = message
    fake.commands = {
        (None if scope == "None" else int(scope)): {int(c["id"]): c for c in cmds}
        for scope, cmds in data["commands"].items()
    }
    fake.app_emojis = {e["name"]: e for e in data["emojis"]}
    fake.emoji_images = {
        name: base64.b64decode(text) for name, text in data["emoji_images"].items()
    }
    fake.files = {
        int(key): (kind, base64.b64decode(text)) for key, (kind, text) in data["files"].items()
    }
    fake._snowflake._last = max(fake._snowflake._last, int(data["last_id"]))
