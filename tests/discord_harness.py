"""Drive the real bot through discord.py's own Interaction objects, with Discord faked.

The bot is the production `DiceBot`: it logs in, runs its `setup_hook` (database,
migrations, the games' commands, command sync) and handles interactions built from Discord's JSON
payloads by `ConnectionState.parse_interaction_create`, exactly as the gateway would
hand them over. Only the transport is replaced: `FakeDiscord` answers every REST call
(`discord.http.HTTPClient.request`) and every interaction callback or webhook
follow-up (`discord.webhook.async_.AsyncWebhookAdapter.request`) the way Discord does,
keeps the messages the bot posts and edits, and records every request.

Typical use (see tests/cogs/ for more)::

    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        started = await harness.slash(anne, "pickomino", "start", turn_timer=0)
        lobby = started.message                  # the live message, as Discord stores it
        await harness.click(bob, lobby, "Join")  # by label, emoji or custom_id
        result = await harness.click(anne, harness.message(lobby.id), "Start")
        assert result.edited                     # answered by editing the clicked message

A select menu is picked from by its custom_id or placeholder and an option's value:
`await harness.choose(anne, message, "Stop and take…", "claim:g21")`.

A second `BotHarness` on the same database file and the same `FakeDiscord` is a
restart: `await BotHarness.running(path, fake=first.fake)`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import re
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import discord.http
import discord.webhook.async_
from discord.http import Route

from bot.app.client import DiceBot
from bot.config import Settings
from bot.devserver import payloads
from bot.devserver.payloads import (
    ALL_PERMISSIONS,
    APPLICATION_ID,
    GUILD_ID,
    MEMBER_PERMISSIONS,
    TIMESTAMP,
    message_payload,
)
from bot.devserver.standin.entry_points import (
    ENTRY_POINT_OMITTED,
    OMITTED_MESSAGE,
    PRIMARY_ENTRY_POINT,
    check_entry_point,
    check_one_entry_point,
    default_entry_point,
    omitted_entry_point,
)
from bot.devserver.standin.errors import FormErrors
from bot.games.registry import GAMES
from bot.plugin import Games
from bot.sessions.timers import TASK_PREFIX
from bot.ui import callback

EPHEMERAL = 1 << 6
# What a field cleared with null reads as afterwards (Discord answers "" for content).
EMPTY: dict[str, Any] = {"content": "", "embeds": [], "components": [], "flags": 0}
COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_DISPLAY = 1, 2, 3, 10  # component types
V2_MAX_COMPONENTS = 40  # nested ones counted
V2_MAX_TEXT = 4000  # all text displays together
BOT_USER_ID = APPLICATION_ID
CHANNEL_ID = 700_000_000_000_000_001
# How long the harness waits for the bot's own work (a click's tasks, a computer player's
# step, its showing) before it calls it a hang: a limit for a stuck task, not a speed
# under test. A game's end starts its review, worked out in a thread, which on a loaded
# 2-core machine, beside another test worker, outlasted the 5 s this was.
HANG_SECONDS = 30.0
MANAGE_MESSAGES = 1 << 13

_OPTION_TYPES = {bool: 5, int: 4, float: 10, str: 3}
# The bot's permissions in an interaction's channel, as Discord sends them: a number, a
# string as it stands, or None for a payload without the field (older ones).
AppPermissions = int | str | None


# --------------------------------------------------------------------------- payloads


@dataclass(frozen=True, slots=True)
class FakeUser:
    """A server member who clicks and types commands."""

    id: int
    name: str
    manage_messages: bool = False
    locale: str = "en-US"  # the client language Discord sends with each interaction

    def user_payload(self) -> dict[str, Any]:
        return payloads.user_payload(self.id, self.name)

    def member_payload(self) -> dict[str, Any]:
        permissions = MEMBER_PERMISSIONS | (MANAGE_MESSAGES if self.manage_messages else 0)
        return payloads.member_payload(self.id, self.name, permissions)


@dataclass(frozen=True, slots=True)
class PrivateChat:
    """A chat outside any server, where the bot answers as a user-installed app: a
    person's DM with the bot (`group=False`), or a group DM of several people (Discord's
    channel type 3, with or without a `name`). Its interactions carry no server, no
    member, only the user."""

    channel_id: int
    group: bool = False
    name: str | None = None

    def channel_payload(self, *people: FakeUser) -> dict[str, Any]:
        recipients = [person.user_payload() for person in people]
        if not self.group:
            return {"id": str(self.channel_id), "type": 1, "recipients": recipients}
        channel: dict[str, Any] = {
            "id": str(self.channel_id),
            "type": 3,
            "recipients": recipients,
            "owner_id": str(people[0].id) if people else None,
            "icon": None,
        }
        if self.name is not None:
            channel["name"] = self.name
        return channel

    def rewrite(self, payload: dict[str, Any], user: FakeUser) -> dict[str, Any]:
        """A server interaction's payload (`_base_payload`) as this chat's: no guild nor
        member, the user's own authorisation (a user install), and the context."""
        for key in ("guild_id", "guild", "member", "guild_locale"):
            payload.pop(key, None)
        payload["user"] = user.user_payload()
        payload["channel_id"] = str(self.channel_id)
        payload["channel"] = self.channel_payload(user)
        payload["context"] = 2 if self.group else 1  # PRIVATE_CHANNEL or BOT_DM
        payload["authorizing_integration_owners"] = {"1": str(user.id)}
        return payload


@dataclass(slots=True)
class StoredMessage:
    """A message as Discord stores it (the payload it would send back)."""

    payload: dict[str, Any]

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def channel_id(self) -> int:
        return int(self.payload["channel_id"])

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.payload.get("embeds") or [])

    @property
    def embed(self) -> dict[str, Any]:
        return self.embeds[0]

    @property
    def content(self) -> str:
        return str(self.payload.get("content") or "")

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.payload.get("flags") or 0) & EPHEMERAL)

    @property
    def v2(self) -> bool:
        return bool(int(self.payload.get("flags") or 0) & COMPONENTS_V2)

    @property
    def rows(self) -> list[list[dict[str, Any]]]:
        """The action rows, wherever they are (top level, or inside a V2 container)."""
        found = _walk(self.payload.get("components") or [])
        return [list(row.get("components", [])) for row in found if row["type"] == ACTION_ROW]

    @property
    def text_displays(self) -> list[str]:
        found = _walk(self.payload.get("components") or [])
        return [str(c.get("content", "")) for c in found if c["type"] == TEXT_DISPLAY]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [component for row in self.rows for component in row if component["type"] == BUTTON]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for row in self.rows for c in row if c["type"] == STRING_SELECT]

    def select(self, which: str) -> dict[str, Any]:
        """A string select menu by custom_id or placeholder (first match)."""
        for select in self.selects:
            if which in (select.get("custom_id"), select.get("placeholder")):
                return select
        raise KeyError(f"no select {which!r} in {[s.get('placeholder') for s in self.selects]}")

    def option_labels(self, which: str) -> list[str]:
        """The labels of a select menu's options, in order."""
        return [option["label"] for option in self.select(which)["options"]]

    def button(self, which: str) -> dict[str, Any]:
        """A button by custom_id, label, or emoji name (first match)."""
        for button in self.buttons:
            emoji = (button.get("emoji") or {}).get("name")
            if which in (button.get("custom_id"), button.get("label"), emoji):
                return button
        raise KeyError(f"no button {which!r} in {[b.get('label') for b in self.buttons]}")

    def enabled(self) -> list[dict[str, Any]]:
        return [button for button in self.buttons if not button.get("disabled")]

    def labels(self) -> list[str]:
        return [str(button.get("label") or button["emoji"]["name"]) for button in self.buttons]

    def text(self) -> str:
        """Everything a reader sees in the message, for assertions."""
        parts = [self.content, *self.text_displays]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
            parts.append((embed.get("footer") or {}).get("text", ""))
        return "\n".join(part for part in parts if part)

    def snapshot(self) -> StoredMessage:
        """A frozen copy: this message as it is now, even after later edits."""
        return StoredMessage(json.loads(json.dumps(self.payload)))


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, nested ones too, in order (an action row before its items)."""
    found = []
    for component in components:
        found.append(component)
        found += _walk(list(component.get("components") or []))
    return found


def v2_problems(message: dict[str, Any]) -> list[str]:
    """How a message with the Components V2 flag breaks Discord's rules (empty if not)."""
    if not int(message.get("flags") or 0) & COMPONENTS_V2:
        return []
    problems = []
    if message.get("content") or message.get("embeds"):
        problems.append("a Components V2 message has no content or embeds")
    components = _walk(list(message.get("components") or []))
    if len(components) > V2_MAX_COMPONENTS:
        problems.append(f"{len(components)} components (at most {V2_MAX_COMPONENTS})")
    text = sum(len(str(c.get("content", ""))) for c in components if c["type"] == TEXT_DISPLAY)
    if text > V2_MAX_TEXT:
        problems.append(f"{text} characters of text (at most {V2_MAX_TEXT})")
    return problems


@dataclass(frozen=True, slots=True)
class Recorded:
    method: str
    path: str  # the route template, e.g. /channels/{channel_id}/messages/{message_id}
    url: str
    payload: Any
    ids: dict[str, str]
    params: dict[str, Any] | None = None  # the query string


@dataclass(slots=True)
class InteractionResult:
    """What the bot answered to one interaction."""

    interaction_id: int
    callbacks: list[dict[str, Any]] = field(default_factory=list)  # {"type": n, "data": ...}
    messages: list[StoredMessage] = field(default_factory=list)  # created or edited by it
    # Its public follow-ups (turn pings ride on the click that ended the turn before).
    followups: list[StoredMessage] = field(default_factory=list)
    answered_at: float | None = None  # time.perf_counter() when the callback arrived
    launched: str | None = None  # the activity instance a LAUNCH_ACTIVITY answer opened

    @property
    def kinds(self) -> list[int]:
        return [callback["type"] for callback in self.callbacks]

    @property
    def edited(self) -> bool:
        """Answered with UPDATE_MESSAGE (interaction.response.edit_message)."""
        return 7 in self.kinds

    @property
    def message(self) -> StoredMessage:
        """The last message this interaction created or edited."""
        if not self.messages:
            raise AssertionError(f"interaction answered without a message: {self.callbacks}")
        return self.messages[-1]

    @property
    def ephemeral(self) -> str | None:
        """The text of the (last) ephemeral answer, if any."""
        for message in reversed(self.messages):
            if message.ephemeral:
                return message.text()
        return None


def _payload_json(fake: FakeDiscord, form: list[dict[str, Any]], files: Any) -> dict[str, Any]:
    """A multipart request's JSON part, with the uploaded files' names as attachments
    (their bytes kept in `fake.uploads`, by file name)."""
    payload: dict[str, Any] = next(
        json.loads(part["value"]) for part in form if part.get("name") == "payload_json"
    )
    data = payload.get("data", payload)  # an interaction callback wraps the message
    data["uploaded"] = [file.filename for file in files or []]
    for file in files or []:
        file.fp.seek(0)
        fake.uploads[file.filename] = file.fp.read()
        file.fp.seek(0)
    return payload


_ATTACHMENT_IDS = itertools.count(1)


def _attachments(data: dict[str, Any]) -> list[dict[str, Any]]:
    """What a message holds after a send or an edit: the files just uploaded."""
    attachments = []
    for name in data.get("uploaded") or []:
        attachment_id = next(_ATTACHMENT_IDS)
        url = f"https://cdn.discordapp.com/attachments/0/{attachment_id}/{name}"
        attachments.append(
            {"id": str(attachment_id), "filename": name, "size": 0, "url": url, "proxy_url": url}
        )
    return attachments


def _http_error(status: int, message: str, code: int = 0) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason=message)
    cls = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return cls(response, {"code": code, "message": message})  # type: ignore[arg-type]


def _invalid_emoji() -> discord.HTTPException:
    """Discord's 400 for a component emoji the application may not use."""
    response = SimpleNamespace(status=400, reason="Bad Request")
    error = {"_errors": [{"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]}
    body = {"code": 50035, "message": "Invalid Form Body", "errors": {"emoji": {"id": error}}}
    return discord.HTTPException(response, body)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the fake


class FakeDiscord:
    """Discord's REST and interaction endpoints, in memory."""

    def __init__(self, application_id: int = APPLICATION_ID, *, activities: bool = False) -> None:
        self._ids = itertools.count(1_000_000_000_000_000_000)
        self.application_id = application_id  # the bot's, as /oauth2/applications/@me says
        # Activities enabled in the portal (enable_activities): Entry Points and
        # LAUNCH_ACTIVITY answers are allowed (bot.devserver.standin.entry_points).
        self.activities = False
        self.messages: dict[int, StoredMessage] = {}
        self.channel_log: dict[int, list[int]] = {}  # channel -> message ids, oldest first
        self.requests: list[Recorded] = []
        # Each application's commands, as Discord answers them: "global" or a guild id ->
        # the list.
        self.command_sets: dict[int, dict[str, list[dict[str, Any]]]] = {}
        self.members: dict[int, FakeUser] = {}
        self._interactions: dict[str, dict[str, Any]] = {}  # token -> interaction payload
        self._results: dict[str, InteractionResult] = {}
        # Route template -> HTTP status to answer once, or (status, Discord's error code).
        self.fail: dict[str, int | tuple[int, int]] = {}
        self.emojis: dict[str, dict[str, Any]] = {}  # the application's emojis, by name
        self.deleted: list[int] = []  # message ids, in the order they were deleted
        self.uploads: dict[str, bytes] = {}  # the last file uploaded under each name
        self.bot_user = {
            "id": str(BOT_USER_ID),
            "username": "pickomino",
            "global_name": None,
            "discriminator": "0000",
            "avatar": None,
            "bot": True,
        }
        if activities:
            self.enable_activities()

    def next_id(self) -> int:
        return next(self._ids)

    def enable_activities(self) -> None:
        """As the portal's Enable Activities: Entry Points and launches allowed, and the
        portal's default Entry Point ("launch", Discord's handler) when there is none."""
        self.activities = True
        scope = self._scope({"application_id": str(self.application_id)})
        if not any(command.get("type") == PRIMARY_ENTRY_POINT for command in scope):
            ids = {"application_id": str(self.application_id)}
            scope.append(self._stored_command(ids, default_entry_point(), None))

    def entry_point(self) -> dict[str, Any] | None:
        """The current application's Entry Point, as Discord stores it."""
        return next((c for c in self.commands.get("global", []) if c["type"] == 4), None)

    @property
    def commands(self) -> dict[str, list[dict[str, Any]]]:
        """The current application's commands: "global" or a guild id -> the list."""
        return self.command_sets.setdefault(self.application_id, {})

    def forget(self) -> None:
        """Drop the request log and answered interactions (long benchmark runs)."""
        self.requests.clear()
        self._interactions.clear()
        self._results.clear()

    # ----------------------------------------------------------------- patching

    @contextlib.contextmanager
    def installed(self) -> Iterator[FakeDiscord]:
        """Route every request discord.py makes to this fake (restored on exit)."""
        fake = self

        async def http_request(client: Any, route: Route, **kwargs: Any) -> Any:
            payload = kwargs.get("json")
            if payload is None and kwargs.get("form"):  # a message with files
                payload = _payload_json(fake, kwargs["form"], kwargs.get("files"))
            return await fake.handle(route, payload, kwargs.get("params"))

        async def webhook_request(
            adapter: Any, route: Route, session: Any = None, **kw: Any
        ) -> Any:
            payload = kw.get("payload")
            if payload is None and kw.get("multipart"):
                payload = _payload_json(fake, kw["multipart"], kw.get("files"))
            return await fake.handle(route, payload)

        async def callback_post(session: Any, route: Route, body: bytes) -> None:
            await fake.handle(route, json.loads(body))  # the bot's own callback path

        http_class = discord.http.HTTPClient
        adapter_class = discord.webhook.async_.AsyncWebhookAdapter
        saved = (http_class.request, adapter_class.request, callback.post)
        http_class.request = http_request  # type: ignore[method-assign,assignment]
        adapter_class.request = webhook_request  # type: ignore[method-assign,assignment]
        callback.post = callback_post
        try:
            yield self
        finally:
            http_class.request, adapter_class.request, callback.post = saved  # type: ignore[method-assign]

    # ----------------------------------------------------------------- routing

    async def handle(self, route: Route, payload: Any, params: Any = None) -> Any:
        """Answer one request. An injected failure (`fail`) is keyed by the route's
        template, or by "METHOD template" to fail only that method."""
        await asyncio.sleep(0)  # a real request yields to the loop
        ids = _route_ids(route)
        self.requests.append(Recorded(route.method, route.path, route.url, payload, ids, params))
        if payload and self._foreign_emoji(payload):
            raise _invalid_emoji()  # as Discord refuses an emoji the application lacks
        status = self.fail.pop(f"{route.method} {route.path}", None)
        if status is None:
            status = self.fail.pop(route.path, None)
        if status is not None:
            status, code = status if isinstance(status, tuple) else (status, 0)
            raise _http_error(status, "injected failure", code)
        handler = self._routes().get((route.method, route.path))
        if handler is None:
            return None
        return handler(ids, payload or {})

    def _foreign_emoji(self, payload: Any) -> bool:
        """Whether a body uses a custom emoji id that is not one of the application's."""
        own = {str(emoji["id"]) for emoji in self.emojis.values()}
        stack = [payload]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                emoji = item.get("emoji")
                if isinstance(emoji, dict) and emoji.get("id") and str(emoji["id"]) not in own:
                    return True
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
        return False

    def _routes(self) -> dict[tuple[str, str], Callable[[dict[str, str], Any], Any]]:
        return {
            ("GET", "/users/@me"): lambda ids, p: dict(self.bot_user),
            ("GET", "/oauth2/applications/@me"): lambda ids, p: self._application(),
            ("GET", "/applications/{application_id}/commands"): self._get_commands,
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands"): (
                self._get_commands
            ),
            ("PUT", "/applications/{application_id}/commands"): self._put_commands,
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): (
                self._put_commands
            ),
            ("POST", "/channels/{channel_id}/messages"): self._create_message,
            ("PATCH", "/channels/{channel_id}/messages/{message_id}"): self._edit_message,
            ("GET", "/channels/{channel_id}/messages/{message_id}"): self._get_message,
            ("DELETE", "/channels/{channel_id}/messages/{message_id}"): self._delete_message,
            ("GET", "/applications/{application_id}/emojis"): self._list_emojis,
            ("POST", "/applications/{application_id}/emojis"): self._create_emoji,
            ("GET", "/guilds/{guild_id}/members/{user_id}"): self._get_member,
            ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"): self._callback,
            ("POST", "/webhooks/{webhook_id}/{webhook_token}"): self._followup,
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): (
                self._edit_original
            ),
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): (
                self._edit_followup
            ),
            ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): (
                self._delete_followup
            ),
        }

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": "Pickomino",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {**self.bot_user, "bot": False, "id": "1"},
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
        }

    def _scope(self, ids: dict[str, str]) -> list[dict[str, Any]]:
        commands = self.command_sets.setdefault(int(ids["application_id"]), {})
        return commands.setdefault(ids.get("guild_id", "global"), [])

    def _get_commands(self, ids: dict[str, str], payload: Any) -> list[dict[str, Any]]:
        return json.loads(json.dumps(self._scope(ids)))

    def _put_commands(self, ids: dict[str, str], payload: Any) -> list[dict[str, Any]]:
        """Bulk overwrite: Discord keeps a command's id when its name stays, and answers
        with what it stored (its own fields and defaults added)."""
        scope = self._scope(ids)
        guild = "guild_id" in ids
        errors = FormErrors()
        for index, command in enumerate(payload):
            check_entry_point(errors, (index,), command, guild=guild, activities=self.activities)
        check_one_entry_point(errors, (), payload)
        if errors.tree:
            raise _http_error(400, f"Invalid Form Body: {errors.tree}", code=50035)
        if not guild and omitted_entry_point(scope, payload):
            raise _http_error(400, OMITTED_MESSAGE, code=ENTRY_POINT_OMITTED)
        old = {(command["type"], command["name"]): command for command in scope}
        scope[:] = [
            self._stored_command(ids, command, old.get((command.get("type", 1), command["name"])))
            for command in payload
        ]
        return json.loads(json.dumps(scope))

    def _stored_command(
        self, ids: dict[str, str], command: dict[str, Any], old: dict[str, Any] | None
    ) -> dict[str, Any]:
        permissions = command.get("default_member_permissions")
        stored: dict[str, Any] = {
            "id": old["id"] if old else str(self.next_id()),
            "application_id": ids["application_id"],
            "version": str(self.next_id()),
            "default_member_permissions": None if permissions is None else str(permissions),
            "type": command.get("type", 1),
            "name": command["name"],
            "name_localizations": command.get("name_localizations") or None,
            "description": command.get("description", ""),
            "description_localizations": command.get("description_localizations") or None,
            "nsfw": bool(command.get("nsfw", False)),
        }
        if command.get("options"):
            stored["options"] = [_stored_option(option) for option in command["options"]]
        if stored["type"] == PRIMARY_ENTRY_POINT:
            stored["handler"] = command.get("handler")
        if "guild_id" in ids:
            stored["guild_id"] = ids["guild_id"]
        else:  # where a command can be used is a global command's only
            stored["contexts"] = command.get("contexts")
            stored["integration_types"] = command.get("integration_types") or [0]
            if command.get("contexts") is not None:
                stored["dm_permission"] = 1 in command["contexts"]
            else:
                stored["dm_permission"] = command.get("dm_permission", True) is not False
        return stored

    def _list_emojis(self, ids: dict[str, str], payload: Any) -> dict[str, Any]:
        return {"items": list(self.emojis.values())}

    def _create_emoji(self, ids: dict[str, str], payload: Any) -> dict[str, Any]:
        name = str(payload["name"])
        if name in self.emojis:
            raise _http_error(400, "Emoji name already taken")
        if not str(payload.get("image", "")).startswith("data:image/png;base64,"):
            raise _http_error(400, "Invalid image data")
        emoji = {
            "id": str(self.next_id()),
            "name": name,
            "roles": [],
            "user": dict(self.bot_user),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        self.emojis[name] = emoji
        return emoji

    def _get_member(self, ids: dict[str, str], payload: Any) -> dict[str, Any]:
        user = self.members.get(int(ids["user_id"]))
        if user is None:
            raise _http_error(404, "Unknown Member")
        return user.member_payload()

    # ----------------------------------------------------------------- messages

    def _store(self, channel_id: int, data: dict[str, Any], **extra: Any) -> StoredMessage:
        message_id = self.next_id()
        payload = message_payload(
            message_id,
            channel_id,
            dict(self.bot_user),
            data,
            attachments=_attachments(data),
            **extra,
        )
        problems = v2_problems(payload)
        if problems:
            raise _http_error(400, "; ".join(problems))
        message = StoredMessage(payload)
        self.messages[message_id] = message
        self.channel_log.setdefault(channel_id, []).append(message_id)
        return message

    def _edit(self, message_id: int, data: dict[str, Any]) -> StoredMessage:
        message = self.messages.get(message_id)
        if message is None:
            raise _http_error(404, "Unknown Message")
        edited = dict(message.payload)
        for key in ("content", "embeds", "components", "flags"):
            if key in data:
                edited[key] = data[key] if data[key] is not None else EMPTY[key]
        if message.v2:  # the flag, once set, stays
            edited["flags"] = int(edited.get("flags") or 0) | COMPONENTS_V2
        problems = v2_problems(edited)
        if problems:
            raise _http_error(400, "; ".join(problems))
        message.payload.update(edited)
        if "attachments" in data or "uploaded" in data:
            message.payload["attachments"] = _attachments(data)
        message.payload["edited_timestamp"] = TIMESTAMP
        return message

    def _create_message(self, ids: dict[str, str], payload: Any) -> dict[str, Any]:
        return self._store(int(ids["channel_id"]), payload).payload

    def _edit_message(self, ids: dict[str, str], payload: Any) -> dict[str, Any]:
        return self._edit(int(ids["message_id"]), payload).payload

    def _delete_message(self, ids: dict[str, str], payload: Any) -> None:
        message_id = int(ids["message_id"])
        if self.messages.pop(message_id, None) is None:
            raise _http_error(404, "Unknown Message")
        self.channel_log[int(ids["channel_id"])].remove(message_id)
        self.deleted.append(message_id)

    def _get_message(self, ids: dict[str, str], payload: Any) -> dict[str, Any]:
        message = self.messages.get(int(ids["message_id"]))
        if message is None:
            raise _http_error(404, "Unknown Message")
        return message.payload

    # ----------------------------------------------------------------- interactions

    def expect_interaction(self, payload: dict[str, Any]) -> InteractionResult:
        self._interactions[payload["token"]] = payload
        result = InteractionResult(int(payload["id"]))
        self._results[payload["token"]] = result
        return result

    def _callback(self, ids: dict[str, str], body: Any) -> dict[str, Any]:
        token = ids["webhook_token"]
        interaction = self._interactions[token]
        result = self._results[token]
        if result.callbacks:
            raise _http_error(400, "Interaction has already been acknowledged.", code=40060)
        kind = int(body["type"])
        data = body.get("data") or {}
        result.answered_at = time.perf_counter()
        result.callbacks.append({"type": kind, "data": data})
        answer: dict[str, Any] = {
            "interaction": {
                "id": interaction["id"],
                "type": interaction["type"],
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            }
        }
        message: StoredMessage | None = None
        if kind == 4:  # CHANNEL_MESSAGE_WITH_SOURCE
            message = self._store(
                int(interaction["channel_id"]),
                data,
                interaction_metadata={
                    "id": interaction["id"],
                    "type": interaction["type"],
                    "user": (interaction.get("member") or interaction)["user"],
                    "authorizing_integration_owners": {"0": str(GUILD_ID)},
                },
            )
            interaction["response_message_id"] = message.id
        elif kind == 7:  # UPDATE_MESSAGE
            message = self._edit(int(interaction["message"]["id"]), data)
        elif kind == 12:  # LAUNCH_ACTIVITY: the clicker opens the channel's instance
            if not self.activities:
                raise _http_error(400, "Activities are not enabled", code=50035)
            channel = int(interaction["channel_id"])
            result.launched = f"i-{channel + 1}-gc-{GUILD_ID}-{channel}"
            answer["interaction"]["activity_instance_id"] = result.launched
            answer["resource"] = {"type": 12, "activity_instance": {"id": result.launched}}
        if message is not None:
            result.messages.append(message.snapshot())
            answer["interaction"]["response_message_id"] = str(message.id)
            answer["resource"] = {"type": kind, "message": message.payload}
        return answer

    def _followup(self, ids: dict[str, str], body: Any) -> dict[str, Any]:
        token = ids["webhook_token"]
        interaction = self._interactions[token]
        message = self._store(int(interaction["channel_id"]), body)
        result = self._results[token]
        (result.messages if message.ephemeral else result.followups).append(message.snapshot())
        return message.payload

    def _delete_followup(self, ids: dict[str, str], body: Any) -> None:
        """A follow-up deleted through its interaction's token (a turn ping)."""
        message = self.messages.get(int(ids["message_id"]))
        if message is None:
            raise _http_error(404, "Unknown Message")
        self._delete_message({"channel_id": str(message.channel_id), **ids}, body)

    def _edit_original(self, ids: dict[str, str], body: Any) -> dict[str, Any]:
        interaction = self._interactions[ids["webhook_token"]]
        message_id = interaction.get("response_message_id") or interaction["message"]["id"]
        message = self._edit(int(message_id), body)
        self._results[ids["webhook_token"]].messages.append(message.snapshot())
        return message.payload

    def _edit_followup(self, ids: dict[str, str], body: Any) -> dict[str, Any]:
        message = self._edit(int(ids["message_id"]), body)
        self._results[ids["webhook_token"]].messages.append(message.snapshot())
        return message.payload

    # ----------------------------------------------------------------- reading

    def channel_messages(self, channel_id: int = CHANNEL_ID) -> list[StoredMessage]:
        return [self.messages[mid] for mid in self.channel_log.get(channel_id, [])]

    def live_messages(self, channel_id: int = CHANNEL_ID) -> list[StoredMessage]:
        """Non-ephemeral messages of the channel that still have buttons."""
        return [m for m in self.channel_messages(channel_id) if m.buttons and not m.ephemeral]

    def sent(self, method: str, path: str) -> list[Recorded]:
        return [r for r in self.requests if r.method == method and r.path == path]


def _stored_option(option: dict[str, Any]) -> dict[str, Any]:
    """An option as Discord answers it: `required` only when true."""
    stored = {key: value for key, value in option.items() if key != "required"}
    if option.get("required"):
        stored["required"] = True
    if option.get("options"):
        stored["options"] = [_stored_option(nested) for nested in option["options"]]
    return stored


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on now (the bot's table listens there)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _route_ids(route: Route) -> dict[str, str]:
    """The path parameters of a request, read back from its URL."""
    pattern = re.sub(r"\\{(\w+)\\}", r"(?P<\1>[^/?]+)", re.escape(route.path))
    match = re.search(pattern + r"(?:\?.*)?$", route.url)
    return dict(match.groupdict()) if match else {}


# --------------------------------------------------------------------------- the harness


class BotHarness:
    """A started DiceBot with a fake Discord, a server, and its members."""

    def __init__(self, bot: DiceBot, fake: FakeDiscord) -> None:
        self.bot = bot
        self.fake = fake
        self._users = itertools.count(100_000_000_000_000_001)
        self._last_interaction_id = 0

    @classmethod
    @contextlib.asynccontextmanager
    async def running(
        cls,
        database: Path | str,
        *,
        fake: FakeDiscord | None = None,
        seed: int = 1,
        clock: Callable[[], float] = time.time,
        close: bool = True,
        bot_step_seconds: float = 0.0,
        emoji_sync: bool = False,
        games: Games = GAMES,
        dev_guild_id: int | None = None,
        force_sync: bool = False,
        caught_up: bool = True,
        table: bool = False,
    ) -> AsyncIterator[BotHarness]:
        """Start a bot on `database` (login + setup_hook), yield the harness, close it.

        Computer players step as soon as their timer task runs (`bot_step_seconds=0`);
        `run_bots` lets them play until a person is to move.

        `emoji_sync=True` uploads the pictures as application emojis in the background, as
        in production (off by default, so messages show their Unicode text).

        `dev_guild_id` is DEV_GUILD_ID; `force_sync` is `python -m bot --sync`.

        `table=True` sets DISCORD_CLIENT_SECRET: the table is on (a new fake Discord then
        has Activities enabled).

        `caught_up=False` leaves the bot as a restarted process whose gateway has not
        connected yet: what start-up leaves for later and the turn timers wait for a
        `ready` or `resumed` event.

        `close=False` leaves the bot as a kill -9 would: nothing flushed, nothing closed
        (its database connection is closed without any shutdown step, to free the file).
        """
        fake = fake or FakeDiscord(activities=table)
        with fake.installed():
            settings = Settings(
                discord_token="fake-token",  # type: ignore[arg-type]
                database_url=f"sqlite:///{database}",
                # No gateway here, so no session to keep; and no journal of interactions
                # in flight (bot.connection.inflight), which sees answers at the aiohttp
                # layer that this fake replaces (the e2e tests run it, with real
                # processes).
                gateway_session_dir=None,
                bot_step_seconds=bot_step_seconds,
                emoji_sync=emoji_sync,
                dev_guild_id=dev_guild_id,
                discord_client_secret="fake-client-secret" if table else None,  # type: ignore[arg-type]
                activity_addr=f"127.0.0.1:{free_port()}" if table else None,
            )
            bot = DiceBot(
                settings,
                games=games,
                rng=random.Random(seed),
                clock=clock,
                force_sync=force_sync,
            )
            await bot.login("fake-token")
            if caught_up:
                bot.go_on_after_replay()  # no gateway here, so nothing is replayed
                await bot.started()  # tables built and commands synced, as tests expect
            harness = cls(bot, fake)
            try:
                yield harness
            finally:
                if close:
                    await bot.close()
                else:
                    if bot.table is not None:  # its port, freed as a killed process's
                        await bot.table.stop()
                    await bot.sessions.timers.close()
                    await bot.db.connection.close()
                    await bot.http.close()

    # ----------------------------------------------------------------- people

    def user(self, name: str, *, manage_messages: bool = False, locale: str = "en-US") -> FakeUser:
        user = FakeUser(next(self._users), name, manage_messages, locale)
        self.fake.members[user.id] = user
        return user

    def _new_interaction_id(self) -> int:
        """A snowflake of now, as Discord's (the bot reads when a click was made from
        it), one more than the last if the clock has not moved."""
        now = discord.utils.time_snowflake(datetime.now(UTC))
        self._last_interaction_id = max(now, self._last_interaction_id + 1)
        return self._last_interaction_id

    def member(self, user_id: int | str) -> FakeUser:
        return self.fake.members[int(user_id)]

    async def session(self, channel_id: int = CHANNEL_ID) -> Any:
        """The channel's live session as the bot holds it (None when there is none)."""
        return await self.bot.sessions.live(channel_id)

    async def current_user(self, channel_id: int = CHANNEL_ID) -> FakeUser:
        """The member whose turn it is in the channel's game."""
        session = await self.session(channel_id)
        return self.member(session.game.current_player)

    def message(self, message_id: int) -> StoredMessage:
        """The message as Discord has it now (what a new click would carry)."""
        return self.fake.messages[message_id]

    # ----------------------------------------------------------------- interactions

    def _base_payload(
        self,
        user: FakeUser,
        kind: int,
        channel_id: int,
        thread: bool,
        app_permissions: AppPermissions = ALL_PERMISSIONS,
        private: PrivateChat | None = None,
    ) -> dict:
        """An interaction of `user` in the channel; `private`: in that chat outside any
        server instead (its own channel id)."""
        interaction_id = self._new_interaction_id()
        channel = payloads.channel_payload(
            channel_id,
            thread_of=CHANNEL_ID if thread else None,
            owner_id=user.id if thread else None,
        )
        payload = payloads.interaction_payload(
            user.id,
            kind,
            channel_id,
            f"token-{interaction_id}",
            interaction_id,
            interaction_id=interaction_id,
            channel=channel,
            member=user.member_payload(),
            locale=user.locale,
            app_permissions=app_permissions,
        )
        return private.rewrite(payload, user) if private is not None else payload

    def slash_payload(
        self,
        user: FakeUser,
        group: str,
        *path: str,
        channel_id: int = CHANNEL_ID,
        thread: bool = False,
        app_permissions: AppPermissions = ALL_PERMISSIONS,
        private: PrivateChat | None = None,
        user_install: bool = False,
        **options: Any,
    ) -> dict[str, Any]:
        """The payload of `/group sub [subsub] option:value ...` as `user` typed it,
        where the bot has `app_permissions` (None: the field left out, as in older
        payloads); `private`: in that DM or group DM, outside any server; `user_install`:
        in a server that never added the bot, where only the person installed the app
        (`app_permissions` are then the person's own)."""
        leaf = [
            {"name": name, "type": _OPTION_TYPES[type(value)], "value": value}
            for name, value in options.items()
        ]
        nested: list[dict[str, Any]] = leaf
        for index, name in reversed(list(enumerate(path))):
            kind = 1 if index == len(path) - 1 else 2  # sub-command / sub-command group
            nested = [{"name": name, "type": kind, "options": nested}]
        payload = self._base_payload(user, 2, channel_id, thread, app_permissions, private)
        if user_install:
            payload["authorizing_integration_owners"] = {"1": str(user.id)}
            payload["context"] = 0
        payload["data"] = {
            "id": str(self.fake.next_id()),
            "name": group,
            "type": 1,
            "options": nested,
        }
        return payload

    def entry_point_payload(
        self, user: FakeUser, *, channel_id: int = CHANNEL_ID, private: PrivateChat | None = None
    ) -> dict[str, Any]:
        """The payload of `user` opening the application from the App Launcher (its Entry
        Point command, type 4) in a channel; `private`: in that DM or group DM."""
        command = self.fake.entry_point()
        if command is None:
            raise LookupError("the application has no Entry Point command")
        payload = self._base_payload(user, 2, channel_id, False, ALL_PERMISSIONS, private)
        payload["data"] = {"id": command["id"], "name": command["name"], "type": 4}
        return payload

    async def use_entry_point(self, user: FakeUser, **where: Any) -> InteractionResult:
        """`user` opens the application from the App Launcher (`entry_point_payload`)."""
        return await self.dispatch(self.entry_point_payload(user, **where))

    async def slash(
        self, user: FakeUser, group: str, *path: str, **given: Any
    ) -> InteractionResult:
        """Run `/group sub [subsub] option:value ...` as `user` typed it (`slash_payload`)."""
        return await self.dispatch(self.slash_payload(user, group, *path, **given))

    async def slash_in_dm(self, user: FakeUser, group: str, *path: str) -> InteractionResult:
        """`/group sub` as `user` typed it in a direct message with the bot (no server)."""
        return await self.slash(user, group, *path, private=PrivateChat(CHANNEL_ID))

    async def click(
        self,
        user: FakeUser,
        message: StoredMessage,
        which: str,
        *,
        thread: bool = False,
        app_permissions: AppPermissions = ALL_PERMISSIONS,
        private: PrivateChat | None = None,
    ) -> InteractionResult:
        """Press a button of `message` (by label, emoji name or custom_id) as `user`.

        `message` is sent as Discord would attach it to the click: pass
        `harness.message(id)` for the message as it is now, or an older snapshot to
        click a stale copy. The bot has `app_permissions` in the channel; `private`: the
        message is in that DM or group DM, outside any server.
        """
        payload = self.click_payload(
            user, message, which, thread=thread, app_permissions=app_permissions
        )
        if private is not None:
            private.rewrite(payload, user)
        return await self.dispatch(payload)

    async def choose(
        self,
        user: FakeUser,
        message: StoredMessage,
        which: str,
        value: str,
        *,
        thread: bool = False,
        app_permissions: AppPermissions = ALL_PERMISSIONS,
    ) -> InteractionResult:
        """Pick the option `value` of a select menu of `message` (by custom_id or
        placeholder) as `user`; `message` and `app_permissions` as for `click`."""
        payload = self.choose_payload(
            user, message, which, value, thread=thread, app_permissions=app_permissions
        )
        return await self.dispatch(payload)

    def choose_payload(
        self,
        user: FakeUser,
        message: StoredMessage,
        which: str,
        value: str,
        *,
        thread: bool = False,
        app_permissions: AppPermissions = ALL_PERMISSIONS,
    ) -> dict[str, Any]:
        """The INTERACTION_CREATE payload Discord sends for a pick in a string select."""
        select = message.select(which)
        offered = [option["value"] for option in select.get("options", [])]
        if value not in offered:  # Discord only sends values the menu offers
            raise KeyError(f"no option {value!r} in {offered}")
        payload = self._base_payload(user, 3, message.channel_id, thread, app_permissions)
        payload["message"] = message.snapshot().payload
        payload["data"] = {
            "custom_id": select["custom_id"],
            "component_type": STRING_SELECT,
            "values": [value],
        }
        return payload

    def click_payload(
        self,
        user: FakeUser,
        message: StoredMessage,
        which: str,
        *,
        thread: bool = False,
        app_permissions: AppPermissions = ALL_PERMISSIONS,
    ) -> dict[str, Any]:
        """The INTERACTION_CREATE payload Discord sends for a button press."""
        button = message.button(which)
        payload = self._base_payload(user, 3, message.channel_id, thread, app_permissions)
        payload["message"] = message.snapshot().payload
        payload["data"] = {"custom_id": button["custom_id"], "component_type": BUTTON}
        return payload

    async def dispatch_together(self, *payloads: dict[str, Any]) -> list[InteractionResult]:
        """Deliver several interactions at once (e.g. a double click), then wait for all."""
        results = [self.fake.expect_interaction(payload) for payload in payloads]
        before = asyncio.all_tasks()
        for payload in payloads:
            self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        await settle(before)
        return results

    async def dispatch(self, payload: dict[str, Any]) -> InteractionResult:
        """Hand the payload to discord.py as the gateway does; wait until it is handled."""
        result = self.fake.expect_interaction(payload)
        before = asyncio.all_tasks()
        # As the gateway does: through the parsers (the bot guards this one).
        self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        await settle(before)
        return result

    async def settle(self) -> None:
        """Until every task started so far is done, and every committed change shown
        (a computer player's step is shown from its timer's task, which settle skips)."""
        await settle(asyncio.all_tasks())
        await asyncio.wait_for(self.bot.sessions.order.idle(), timeout=HANG_SECONDS)
        await asyncio.wait_for(self.bot.platform.live.pings_done(), timeout=HANG_SECONDS)

    async def run_bots(self, channel_id: int = CHANNEL_ID, limit: int = 500) -> int:
        """Let computer players move by themselves (the timer wheel fires their steps) until
        a person is to move or the game is over; return how many timer firings it took."""
        name = f"{TASK_PREFIX}{channel_id}"
        for steps in range(limit):
            session = await self.session(channel_id)
            if session is None or session.clock.bot_due is None:
                await self.settle()  # the last step's showing, if its timer is still at it
                return steps
            armed = [task for task in asyncio.all_tasks() if task.get_name() == name]
            if not armed:
                raise AssertionError("a computer player is to move, but no timer is armed")
            _, still = await asyncio.wait(armed, timeout=HANG_SECONDS)
            if still:
                raise AssertionError("the computer player's step did not come")
            await self.settle()
        raise AssertionError(f"computer players still moving after {limit} steps")


async def settle(before: set[asyncio.Task[Any]]) -> None:
    """Wait for every task started since `before` (turn timers excepted) to finish."""
    current = asyncio.current_task()
    for _ in range(1000):
        await asyncio.sleep(0)
        pending = [
            task
            for task in asyncio.all_tasks()
            if task not in before
            and task is not current
            and not task.done()
            and not task.get_name().startswith(TASK_PREFIX)
            and not _is_view_timeout(task)
        ]
        if not pending:
            return
        _, still = await asyncio.wait(pending, timeout=HANG_SECONDS)
        if still:
            raise AssertionError(f"interaction handling hangs: {[t.get_coro() for t in still]}")
    raise AssertionError("interaction handling did not settle")


def _is_view_timeout(task: asyncio.Task[Any]) -> bool:
    # discord.py gives a view sent on an ephemeral message a 15-minute timeout task.
    coro = task.get_coro()
    return "timeout_task_impl" in getattr(coro, "__qualname__", "")
