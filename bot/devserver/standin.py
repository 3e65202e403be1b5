"""A local stand-in for Discord, for end-to-end tests of the bot.

``FakeDiscord`` is an aiohttp server on 127.0.0.1 (a free port) that speaks enough of
Discord's REST API v10 and gateway for discord.py 2.7: login, READY and GUILD_CREATE,
command sync, interactions with their callbacks and webhook follow-ups, and channel
messages. It keeps a model of every message, enforces the limits Discord enforces (answering
with Discord's own error bodies) and records every unknown route and every rejected request,
so that a test can fail on them (``fake.check()``, done by the ``fake_discord`` fixture).

Typical use::

    async with FakeDiscord() as fake:
        apply_endpoint_overrides(fake.api_base, fake.gateway_url)   # or env=fake.env()
        ... start the bot with fake.token, then await fake.wait_until_ready() ...
        reply = await fake.send_command("alice", "pickomino new", {"players": 2})
        board = fake.live_message()
        click = await fake.click("bob", board, label="Roll")
        assert "Bob" in board.embed_text and click.latency < 1

Everything that waits takes a timeout and raises an ``AssertionError`` subclass
(``FakeDiscordTimeout``) with what was seen, rather than hanging a test.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import contextvars
import dataclasses
import datetime as dt
import itertools
import json
import re
import secrets
import socket
import time
import traceback
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

__all__ = [
    "FakeButton",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordTimeout",
    "FakeInteraction",
    "FakeMessage",
    "FakeUser",
    "Rejection",
    "running_client",
]

API_VERSION = 10
API_PREFIX = f"/api/v{API_VERSION}"
GATEWAY_PATH = "/gateway"
RESUME_GATEWAY_PATH = "/gateway-resume"
DEFAULT_TOKEN = "MTA0NTk1.fake-discord.bot-token"
DISCORD_EPOCH_MS = 1_420_070_400_000
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Gateway opcodes.
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_VOICE_STATE = 0, 1, 2, 3, 4
OP_RESUME, OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION = 6, 7, 8, 9
OP_HELLO, OP_HEARTBEAT_ACK = 10, 11

# Gateway intents.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_IS_COMPONENTS_V2 = 1 << 15
CHANNEL_MESSAGE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_IS_COMPONENTS_V2
INTERACTION_MESSAGE_FLAGS = CHANNEL_MESSAGE_FLAGS | FLAG_EPHEMERAL

# Interaction types and interaction callback (response) types.
IT_PING, IT_COMMAND, IT_COMPONENT, IT_AUTOCOMPLETE, IT_MODAL_SUBMIT = 1, 2, 3, 4, 5
CB_PONG, CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 1, 4, 5, 6, 7
CB_AUTOCOMPLETE, CB_MODAL = 8, 9
ALLOWED_CALLBACKS = {
    IT_COMMAND: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL},
    IT_COMPONENT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL},
    IT_AUTOCOMPLETE: {CB_AUTOCOMPLETE},
    IT_MODAL_SUBMIT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE},
}

# Component types.
CT_ACTION_ROW, CT_BUTTON, CT_STRING_SELECT, CT_TEXT_INPUT = 1, 2, 3, 4
CT_SECTION, CT_TEXT_DISPLAY, CT_THUMBNAIL, CT_CONTAINER, CT_LABEL = 9, 10, 11, 17, 18
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
V2_TOP_LEVEL = frozenset({1, 9, 10, 12, 13, 14, 17})

# Application command option types.
OPT_SUB_COMMAND, OPT_GROUP, OPT_STRING, OPT_INTEGER, OPT_BOOLEAN = 1, 2, 3, 4, 5
OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, OPT_NUMBER, OPT_ATTACHMENT = 6, 7, 8, 9, 10, 11

# Permissions.
PERM_CREATE_INSTANT_INVITE = 1 << 0
PERM_ADMINISTRATOR = 1 << 3
PERM_ADD_REACTIONS = 1 << 6
PERM_VIEW_CHANNEL = 1 << 10
PERM_SEND_MESSAGES = 1 << 11
PERM_MANAGE_MESSAGES = 1 << 13
PERM_EMBED_LINKS = 1 << 14
PERM_ATTACH_FILES = 1 << 15
PERM_READ_MESSAGE_HISTORY = 1 << 16
PERM_USE_EXTERNAL_EMOJIS = 1 << 18
PERM_CONNECT = 1 << 20
PERM_SPEAK = 1 << 21
PERM_CHANGE_NICKNAME = 1 << 26
PERM_USE_APPLICATION_COMMANDS = 1 << 31
PERM_SEND_MESSAGES_IN_THREADS = 1 << 38
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

# What the current request's handler found out (its JSON body, its interaction), for the
# rejection record; aiohttp runs each request in its own task, hence its own context.
_REQUEST_STATE: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar("fake_discord")

_COMMAND_NAME_RE = re.compile(r"^[-_'\w]{1,32}$")


# --------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------


def _now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


class _Snowflakes:
    """Discord-shaped ids: milliseconds since 2015 in the top bits, always increasing."""

    def __init__(self) -> None:
        self._last = 0
        self._increment = itertools.count()

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (1 << 17) | (next(self._increment) & 0xFFF)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value


def _as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _json_response(
    data: Any, *, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    # Exactly "application/json", as Discord sends it: discord.py's json_or_text() only
    # parses a body whose content-type is that string (no "; charset=utf-8").
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def _truthy_query(value: str | None) -> bool:
    return value is not None and value.lower() in {"1", "true", "yes"}


class DiscordHTTPError(Exception):
    """Raised by route handlers; turned into Discord's JSON error body."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def _unknown_message() -> DiscordHTTPError:
    return DiscordHTTPError(404, 10008, "Unknown Message")


class FakeDiscordTimeout(AssertionError):
    """A wait on the stand-in ran out of time (an assertion failure in a test)."""


@dataclass
class Rejection:
    """A request the stand-in refused the way Discord would (HTTP or gateway close)."""

    method: str
    path: str
    status: int
    code: int
    message: str
    errors: dict[str, Any] | None = None
    request_body: Any = None
    interaction_id: int | None = None
    at: float = field(default_factory=time.monotonic)

    def __str__(self) -> str:
        text = f"{self.method} {self.path} -> {self.status} {self.code} {self.message}"
        if self.errors:
            text += f" {json.dumps(self.errors)}"
        return text


@dataclass
class RequestRecord:
    method: str
    path: str
    status: int
    at: float = field(default_factory=time.monotonic)


class _FormErrors:
    """Collects field errors in Discord's nested ``errors`` shape."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Sequence[str | int], code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def raise_if_any(self) -> None:
        if self.tree:
            raise DiscordHTTPError(400, 50035, "Invalid Form Body", self.tree)


# --------------------------------------------------------------------------------------
# Validation of what the bot sends: what Discord enforces, with Discord's messages.
# --------------------------------------------------------------------------------------

Path = tuple[str | int, ...]


def _length_error(
    errors: _FormErrors, path: Path, size: int, *, min_len: int, max_len: int
) -> None:
    """Discord's error for a string or list whose length is out of bounds."""
    if size > max_len or size < min_len:
        if min_len:
            errors.add(
                path, "BASE_TYPE_BAD_LENGTH", f"Must be between {min_len} and {max_len} in length."
            )
        else:
            errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {max_len} or fewer in length.")


def _check_str(
    errors: _FormErrors,
    path: Path,
    value: Any,
    *,
    max_len: int,
    min_len: int = 0,
    required: bool = False,
) -> str:
    if value is None or (required and value == ""):
        if required:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return ""
    if not isinstance(value, str):
        errors.add(path, "BASE_TYPE_STRING", "Could not interpret value as string.")
        return ""
    _length_error(errors, path, len(value), min_len=min_len, max_len=max_len)
    return value


def _check_list(
    errors: _FormErrors, path: Path, value: Any, *, max_len: int, min_len: int = 0
) -> list[Any]:
    if value is None:
        if min_len:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return []
    if not isinstance(value, list):
        errors.add(path, "BASE_TYPE_ARRAY", "Only iterables may be used in a ListType")
        return []
    _length_error(errors, path, len(value), min_len=min_len, max_len=max_len)
    return value


def _check_int(
    errors: _FormErrors, path: Path, value: Any, *, low: int, high: int, required: bool = False
) -> int | None:
    if value is None:
        if required:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        errors.add(path, "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
        return None
    if value < low:
        errors.add(path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}.")
    elif value > high:
        errors.add(path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {high}.")
    return value


def _check_url(errors: _FormErrors, path: Path, value: Any, *, required: bool = False) -> None:
    url = _check_str(errors, path, value, max_len=2048, required=required)
    if url and not re.match(r"^(https?|attachment|discord)://\S+$", url):
        errors.add(path, "URL_TYPE_INVALID_URL", "Not a well formed URL.")


def _is_model(errors: _FormErrors, path: Path, value: Any) -> bool:
    if isinstance(value, dict):
        return True
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
    return False


def _validate_embeds(errors: _FormErrors, path: Path, embeds: Any) -> None:
    embeds = _check_list(errors, path, embeds, max_len=10)
    total = 0
    for index, embed in enumerate(embeds):
        p: Path = (*path, index)
        if not _is_model(errors, p, embed):
            continue
        total += len(_check_str(errors, (*p, "title"), embed.get("title"), max_len=256))
        total += len(
            _check_str(errors, (*p, "description"), embed.get("description"), max_len=4096)
        )
        _check_url(errors, (*p, "url"), embed.get("url"))
        _check_int(errors, (*p, "color"), embed.get("color"), low=0, high=0xFFFFFF)
        timestamp = embed.get("timestamp")
        if timestamp is not None:
            try:
                dt.datetime.fromisoformat(str(timestamp))
            except ValueError:
                errors.add((*p, "timestamp"), "DATE_TIME_TYPE_PARSE", "Could not parse timestamp.")
        footer = embed.get("footer")
        if footer is not None and _is_model(errors, (*p, "footer"), footer):
            text = footer.get("text")
            total += len(
                _check_str(errors, (*p, "footer", "text"), text, max_len=2048, required=True)
            )
            _check_url(errors, (*p, "footer", "icon_url"), footer.get("icon_url"))
        author = embed.get("author")
        if author is not None and _is_model(errors, (*p, "author"), author):
            name = author.get("name")
            total += len(
                _check_str(errors, (*p, "author", "name"), name, max_len=256, required=True)
            )
            _check_url(errors, (*p, "author", "url"), author.get("url"))
            _check_url(errors, (*p, "author", "icon_url"), author.get("icon_url"))
        for key in ("image", "thumbnail"):
            media = embed.get(key)
            if media is not None and _is_model(errors, (*p, key), media):
                _check_url(errors, (*p, key, "url"), media.get("url"), required=True)
        fields = _check_list(errors, (*p, "fields"), embed.get("fields"), max_len=25)
        for j, fld in enumerate(fields):
            q: Path = (*p, "fields", j)
            if not _is_model(errors, q, fld):
                continue
            name = _check_str(errors, (*q, "name"), fld.get("name"), max_len=256, required=True)
            value = _check_str(errors, (*q, "value"), fld.get("value"), max_len=1024, required=True)
            total += len(name) + len(value)
            inline = fld.get("inline")
            if inline is not None and not isinstance(inline, bool):
                errors.add((*q, "inline"), "BASE_TYPE_BOOLEAN", "Must be either true or false.")
    if total > 6000:
        errors.add(path, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _ctype(component: Any) -> int | None:
    return component.get("type") if isinstance(component, dict) else None


class _ComponentChecker:
    """Component rules, shared by messages (legacy rows or components v2) and modals."""

    def __init__(self, errors: _FormErrors) -> None:
        self.errors = errors
        self.custom_ids: set[str] = set()
        self.count = 0

    def custom_id(self, path: Path, component: dict[str, Any]) -> None:
        cid = _check_str(
            self.errors,
            (*path, "custom_id"),
            component.get("custom_id"),
            max_len=100,
            min_len=1,
            required=True,
        )
        if cid:
            if cid in self.custom_ids:
                self.errors.add(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            self.custom_ids.add(cid)

    def emoji(self, path: Path, emoji: Any) -> None:
        if emoji is None or not _is_model(self.errors, path, emoji):
            return
        if not emoji.get("id") and not emoji.get("name"):
            self.errors.add(path, "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")

    def button(self, path: Path, button: dict[str, Any]) -> None:
        e = self.errors
        style = button.get("style")
        if style not in (1, 2, 3, 4, 5, 6):
            e.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        _check_str(e, (*path, "label"), button.get("label"), max_len=80)
        self.emoji((*path, "emoji"), button.get("emoji"))
        if style == 5:
            _check_url(e, (*path, "url"), button.get("url"), required=True)
            if button.get("custom_id") is not None:
                e.add(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom_id",
                )
        elif style == 6:
            if not button.get("sku_id"):
                e.add((*path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
            for key in ("custom_id", "url", "label", "emoji"):
                if button.get(key) is not None:
                    e.add((*path, key), "BUTTON_COMPONENT_PREMIUM_FIELD", "Not allowed on premium")
        else:
            self.custom_id(path, button)
            if button.get("url") is not None:
                e.add(
                    (*path, "url"),
                    "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                    "A non-link button cannot have a url",
                )
        if style != 6 and not button.get("label") and not button.get("emoji"):
            e.add(
                path,
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button must have a label or an emoji",
            )

    def select(self, path: Path, select: dict[str, Any]) -> None:
        e = self.errors
        self.custom_id(path, select)
        _check_str(e, (*path, "placeholder"), select.get("placeholder"), max_len=150)
        low = _check_int(e, (*path, "min_values"), select.get("min_values"), low=0, high=25)
        high = _check_int(e, (*path, "max_values"), select.get("max_values"), low=1, high=25)
        if low is not None and high is not None and low > high:
            e.add((*path, "min_values"), "SELECT_COMPONENT_MIN_MAX", "min_values > max_values")
        if select.get("type") != CT_STRING_SELECT:
            return
        opts = _check_list(e, (*path, "options"), select.get("options"), max_len=25, min_len=1)
        values: set[str] = set()
        for j, opt in enumerate(opts):
            q: Path = (*path, "options", j)
            if not _is_model(e, q, opt):
                continue
            _check_str(e, (*q, "label"), opt.get("label"), max_len=100, min_len=1, required=True)
            value = _check_str(
                e, (*q, "value"), opt.get("value"), max_len=100, min_len=1, required=True
            )
            _check_str(e, (*q, "description"), opt.get("description"), max_len=100)
            self.emoji((*q, "emoji"), opt.get("emoji"))
            if value in values:
                e.add(
                    (*q, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select options must have unique values",
                )
            values.add(value)
        if high is not None and opts and high > len(opts):
            e.add(
                (*path, "max_values"),
                "BASE_TYPE_MAX",
                f"Must be less than or equal to {len(opts)}.",
            )

    def text_input(self, path: Path, component: dict[str, Any], *, in_label: bool) -> None:
        e = self.errors
        self.custom_id(path, component)
        if component.get("style") not in (1, 2):
            e.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
        if not in_label:
            label = component.get("label")
            _check_str(e, (*path, "label"), label, max_len=45, min_len=1, required=True)
        _check_int(e, (*path, "min_length"), component.get("min_length"), low=0, high=4000)
        _check_int(e, (*path, "max_length"), component.get("max_length"), low=1, high=4000)
        _check_str(e, (*path, "value"), component.get("value"), max_len=4000)
        _check_str(e, (*path, "placeholder"), component.get("placeholder"), max_len=100)

    def action_row(self, path: Path, row: dict[str, Any], *, modal: bool = False) -> None:
        e = self.errors
        children_path: Path = (*path, "components")
        children = _check_list(e, children_path, row.get("components"), max_len=5, min_len=1)
        if any(_ctype(c) in SELECT_TYPES or _ctype(c) == CT_TEXT_INPUT for c in children) and (
            len(children) > 1
        ):
            e.add(
                children_path,
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for j, child in enumerate(children):
            q: Path = (*children_path, j)
            if not _is_model(e, q, child):
                continue
            self.count += 1
            kind = child.get("type")
            if kind == CT_BUTTON and not modal:
                self.button(q, child)
            elif kind in SELECT_TYPES:
                self.select(q, child)
            elif kind == CT_TEXT_INPUT and modal:
                self.text_input(q, child, in_label=False)
            else:
                e.add(
                    (*q, "type"),
                    "COMPONENT_TYPE_INVALID",
                    f"Component type {kind} is not allowed here",
                )

    def v2(self, path: Path, component: Any, *, allowed: frozenset[int] = V2_TOP_LEVEL) -> None:
        e = self.errors
        if not _is_model(e, path, component):
            return
        self.count += 1
        kind = component.get("type")
        if kind not in allowed:
            e.add((*path, "type"), "COMPONENT_TYPE_INVALID", f"Component type {kind} not allowed")
        elif kind == CT_ACTION_ROW:
            self.action_row(path, component)
        elif kind == CT_TEXT_DISPLAY:
            text = component.get("content")
            _check_str(e, (*path, "content"), text, max_len=4000, min_len=1, required=True)
        elif kind == CT_SECTION:
            texts = _check_list(
                e, (*path, "components"), component.get("components"), max_len=3, min_len=1
            )
            for j, child in enumerate(texts):
                self.v2((*path, "components", j), child, allowed=frozenset({CT_TEXT_DISPLAY}))
            accessory = component.get("accessory")
            if accessory is None:
                e.add((*path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
            elif _is_model(e, (*path, "accessory"), accessory):
                self.count += 1
                if accessory.get("type") == CT_BUTTON:
                    self.button((*path, "accessory"), accessory)
                elif accessory.get("type") != CT_THUMBNAIL:
                    e.add((*path, "accessory", "type"), "COMPONENT_TYPE_INVALID", "Bad accessory")
        elif kind == CT_CONTAINER:
            children = _check_list(
                e, (*path, "components"), component.get("components"), max_len=40, min_len=1
            )
            inner = frozenset({1, 9, 10, 12, 13, 14})
            for j, child in enumerate(children):
                self.v2((*path, "components", j), child, allowed=inner)


def _validate_components(errors: _FormErrors, path: Path, components: Any, *, v2: bool) -> None:
    checker = _ComponentChecker(errors)
    rows = _check_list(errors, path, components, max_len=40 if v2 else 5)
    for index, component in enumerate(rows):
        p: Path = (*path, index)
        if v2:
            checker.v2(p, component)
        elif _ctype(component) != CT_ACTION_ROW:
            errors.add(
                (*p, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).'
            )
        else:
            checker.action_row(p, component)
    if v2 and checker.count > 40:
        errors.add(
            path,
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            "The maximum number of components was exceeded (40).",
        )


def _validate_message_fields(
    errors: _FormErrors, prefix: Path, body: Mapping[str, Any], *, allowed_flags: int
) -> None:
    """Field-level checks of a create or edit body (emptiness is checked on the result)."""
    content = _check_str(errors, (*prefix, "content"), body.get("content"), max_len=2000)
    flags = body.get("flags")
    if flags is not None:
        if isinstance(flags, bool) or not isinstance(flags, int):
            errors.add((*prefix, "flags"), "NUMBER_TYPE_COERCE", f'Value "{flags}" is not int.')
            flags = 0
        elif flags & ~allowed_flags:
            errors.add((*prefix, "flags"), "MESSAGE_FLAGS_INVALID", "Invalid flags were set.")
    v2 = bool((flags or 0) & FLAG_IS_COMPONENTS_V2)
    if "embeds" in body:
        _validate_embeds(errors, (*prefix, "embeds"), body.get("embeds"))
    if body.get("components") is not None:
        _validate_components(errors, (*prefix, "components"), body["components"], v2=v2)
    if v2 and (content or body.get("embeds")):
        errors.add(
            (*prefix, "content" if content else "embeds"),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used when using "
            "MessageFlags.IS_COMPONENTS_V2",
        )


def _validate_modal(errors: _FormErrors, prefix: Path, data: Mapping[str, Any]) -> None:
    checker = _ComponentChecker(errors)
    checker.custom_id(prefix, dict(data))
    title = data.get("title")
    _check_str(errors, (*prefix, "title"), title, max_len=45, min_len=1, required=True)
    path: Path = (*prefix, "components")
    rows = _check_list(errors, path, data.get("components"), max_len=5, min_len=1)
    for index, row in enumerate(rows):
        p: Path = (*path, index)
        if not _is_model(errors, p, row):
            continue
        if row.get("type") == CT_ACTION_ROW:
            checker.action_row(p, row, modal=True)
        elif row.get("type") == CT_LABEL:
            _check_str(errors, (*p, "label"), row.get("label"), max_len=45, min_len=1)
            inner = row.get("component")
            if _is_model(errors, (*p, "component"), inner):
                if inner.get("type") == CT_TEXT_INPUT:
                    checker.text_input((*p, "component"), inner, in_label=True)
                elif inner.get("type") in SELECT_TYPES:
                    checker.select((*p, "component"), inner)
        elif row.get("type") != CT_TEXT_DISPLAY:
            errors.add((*p, "type"), "COMPONENT_TYPE_INVALID", "Not allowed in a modal")


def _validate_command(errors: _FormErrors, path: Path, cmd: Any) -> None:
    if not _is_model(errors, path, cmd):
        return
    kind = cmd.get("type", 1)
    if kind not in (1, 2, 3, 4):
        errors.add((*path, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
    name = cmd.get("name")
    if not isinstance(name, str) or not name or len(name) > 32:
        errors.add((*path, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
    elif kind == 1 and (not _COMMAND_NAME_RE.match(name) or name != name.lower()):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = cmd.get("description")
    if kind == 1:
        _check_str(
            errors, (*path, "description"), description, max_len=100, min_len=1, required=True
        )
    elif description:
        errors.add(
            (*path, "description"),
            "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
            "Context menu commands cannot have a description",
        )
    options = _check_list(errors, (*path, "options"), cmd.get("options"), max_len=25)
    if options and kind != 1:
        errors.add((*path, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID", "Not allowed")
    _validate_options(errors, (*path, "options"), options, parent=None)
    if _command_size(cmd) > 8000:
        errors.add(path, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")


def _command_size(cmd: Mapping[str, Any]) -> int:
    size = len(str(cmd.get("name") or "")) + len(str(cmd.get("description") or ""))
    for opt in cmd.get("options") or []:
        if isinstance(opt, dict):
            size += _command_size(opt)
            for choice in opt.get("choices") or []:
                if isinstance(choice, dict):
                    size += len(str(choice.get("name"))) + len(str(choice.get("value")))
    return size


def _validate_options(
    errors: _FormErrors, path: Path, options: list[Any], *, parent: int | None
) -> None:
    """Options of a command (``parent`` None), of a sub-command group or of a sub-command."""
    names: set[str] = set()
    kinds = [o.get("type") for o in options if isinstance(o, dict)]
    nested = [k for k in kinds if k in (OPT_SUB_COMMAND, OPT_GROUP)]
    if nested and len(nested) != len(kinds):
        errors.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all other "
            "types",
        )
    seen_optional = False
    for index, opt in enumerate(options):
        p: Path = (*path, index)
        if not _is_model(errors, p, opt):
            continue
        kind = opt.get("type")
        if kind not in range(1, 12):
            errors.add((*p, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, ..., 11}.")
        name = opt.get("name")
        if not isinstance(name, str) or not _COMMAND_NAME_RE.match(name) or name != name.lower():
            errors.add((*p, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        elif name in names:
            errors.add(
                (*p, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        else:
            names.add(name)
        description = opt.get("description")
        _check_str(errors, (*p, "description"), description, max_len=100, min_len=1, required=True)
        misplaced = (parent == OPT_GROUP and kind != OPT_SUB_COMMAND) or (
            parent == OPT_SUB_COMMAND and kind in (OPT_SUB_COMMAND, OPT_GROUP)
        )
        if misplaced:
            errors.add(
                (*p, "type"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "A sub-command group holds only sub-commands; a sub-command no sub-commands",
            )
        if kind in (OPT_SUB_COMMAND, OPT_GROUP):
            children = _check_list(errors, (*p, "options"), opt.get("options"), max_len=25)
            _validate_options(errors, (*p, "options"), children, parent=kind)
            continue
        if opt.get("required"):
            if seen_optional:
                errors.add(
                    (*p, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        choices = _check_list(errors, (*p, "choices"), opt.get("choices"), max_len=25)
        if choices and opt.get("autocomplete"):
            errors.add(
                (*p, "autocomplete"),
                "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                "Autocomplete cannot be set on an option with choices",
            )
        if choices and kind not in (OPT_STRING, OPT_INTEGER, OPT_NUMBER):
            errors.add((*p, "choices"), "APPLICATION_COMMAND_OPTIONS_INVALID", "No choices here")
        for j, choice in enumerate(choices):
            q: Path = (*p, "choices", j)
            if not _is_model(errors, q, choice):
                continue
            _check_str(errors, (*q, "name"), choice.get("name"), max_len=100, min_len=1)
            value = choice.get("value")
            if kind == OPT_STRING:
                _check_str(errors, (*q, "value"), value, max_len=100, min_len=1, required=True)
            elif isinstance(value, bool) or not isinstance(value, int | float):
                errors.add((*q, "value"), "NUMBER_TYPE_COERCE", f'Value "{value}" is not a number.')
        if kind == OPT_STRING:
            _check_int(errors, (*p, "min_length"), opt.get("min_length"), low=0, high=6000)
            _check_int(errors, (*p, "max_length"), opt.get("max_length"), low=1, high=6000)


# --------------------------------------------------------------------------------------
# The model: users, channels, messages, interactions.
# --------------------------------------------------------------------------------------


@dataclass
class FakeUser:
    """A member of the fake guild (a human player, or the bot itself)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=_now_iso)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.nick or self.global_name or self.username

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "collectibles": None,
            "display_name_styles": None,
            "primary_guild": None,
            "clan": None,
            "public_flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class FakeChannel:
    id: int
    name: str
    type: int = 0
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    last_message_id: int | None = None
    guild_id: int = 0  # 0: the first guild (the stand-in's `guild_id`)


@dataclass(frozen=True)
class FakeButton:
    """A button as a user sees it on a message."""

    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    emoji: str | None
    url: str | None
    row: int
    component_id: int | None


@dataclass
class FakeMessage:
    """One message as Discord stores it, with helpers for assertions."""

    id: int
    channel_id: int
    guild_id: int | None
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    timestamp: str = field(default_factory=_now_iso)
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    interaction: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    interaction_id: int | None = None
    recipient_id: int | None = None  # who sees an ephemeral message
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list, repr=False)

    @property
    def is_ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def is_loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def edits(self) -> int:
        return len(self.history)

    @property
    def embed(self) -> dict[str, Any] | None:
        return self.embeds[0] if self.embeds else None

    @property
    def embed_text(self) -> str:
        """Title, author, description, fields ("name\\nvalue") and footer of every embed."""
        parts: list[str] = []
        for embed in self.embeds:
            parts.append((embed.get("author") or {}).get("name") or "")
            parts.append(embed.get("title") or "")
            parts.append(embed.get("description") or "")
            for fld in embed.get("fields") or []:
                parts.append(f"{fld.get('name', '')}\n{fld.get('value', '')}")
            parts.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(p for p in parts if p)

    @property
    def text(self) -> str:
        """Everything a user reads: content, embeds and components-v2 text displays."""
        texts = [c.get("content", "") for c in _walk(self.components) if c.get("type") == 10]
        return "\n".join(p for p in (self.content, self.embed_text, *texts) if p)

    @property
    def buttons(self) -> list[FakeButton]:
        found: list[FakeButton] = []
        for row_index, row in enumerate(self.components):
            for comp in _walk([row]):
                if comp.get("type") != CT_BUTTON:
                    continue
                emoji = comp.get("emoji") or {}
                found.append(
                    FakeButton(
                        custom_id=comp.get("custom_id"),
                        label=comp.get("label"),
                        style=comp.get("style", 1),
                        disabled=bool(comp.get("disabled")),
                        emoji=emoji.get("name"),
                        url=comp.get("url"),
                        row=row_index,
                        component_id=comp.get("id"),
                    )
                )
        return found

    def button(self, label: str) -> FakeButton:
        """The button whose label (or, failing that, emoji) is ``label``."""
        for attr in ("label", "emoji", "custom_id"):
            for button in self.buttons:
                if getattr(button, attr) == label:
                    return button
        labels = [b.label or b.emoji for b in self.buttons]
        raise LookupError(f"no button {label!r} on message {self.id}; buttons: {labels}")

    def has_button(self, label: str) -> bool:
        try:
            self.button(label)
        except LookupError:
            return False
        return True

    def component(self, custom_id: str) -> dict[str, Any]:
        for comp in _walk(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        raise LookupError(f"no component with custom_id {custom_id!r} on message {self.id}")

    def payload(self) -> dict[str, Any]:
        """The message object as Discord's REST API returns it."""
        data: dict[str, Any] = {
            "type": self.type,
            "content": self.content,
            "mentions": [],
            "mention_roles": [],
            "attachments": [dict(a) for a in self.attachments],
            "embeds": [dict(e) for e in self.embeds],
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "flags": self.flags,
            "components": json.loads(json.dumps(self.components)),
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": dict(self.author),
            "pinned": False,
            "mention_everyone": False,
            "tts": self.tts,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.interaction is not None:
            data["interaction"] = self.interaction
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        return data

    def render(self) -> str:
        """A readable dump for failure messages."""
        lines = [f"message {self.id} flags={self.flags}{' (deleted)' if self.deleted else ''}"]
        if self.text:
            lines.append(self.text)
        for row in range(len(self.components)):
            labels = [
                f"[{b.label or b.emoji}{' x' if b.disabled else ''}]"
                for b in self.buttons
                if b.row == row
            ]
            if labels:
                lines.append(" ".join(labels))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


def _walk(components: Iterable[Any]) -> Iterable[dict[str, Any]]:
    """Every component, depth first, through rows, sections, containers and labels."""
    for comp in components:
        if not isinstance(comp, dict):
            continue
        yield comp
        yield from _walk(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from _walk([comp[key]])


def _number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copy components, giving each one without an ``id`` the next free number, as Discord."""
    copied: list[dict[str, Any]] = json.loads(json.dumps(components))
    used = {c["id"] for c in _walk(copied) if isinstance(c.get("id"), int)}
    counter = itertools.count(1)
    for comp in _walk(copied):
        if not isinstance(comp.get("id"), int):
            comp["id"] = next(n for n in counter if n not in used)
    return copied


def _normalize_embeds(embeds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for embed in embeds:
        copy = json.loads(json.dumps(embed))
        copy.setdefault("type", "rich")
        out.append(copy)
    return out


@dataclass
class FakeInteraction:
    """One interaction the stand-in dispatched, and everything the bot did with it."""

    fake: FakeDiscord = field(repr=False)
    id: int
    token: str = field(repr=False)
    type: int
    user: FakeUser
    name: str  # "/pickomino new" for commands, the custom_id for components
    channel_id: int
    payload: dict[str, Any] = field(repr=False)
    source_message_id: int | None = None
    dispatched_at: float | None = None
    response_type: int | None = None
    response: dict[str, Any] | None = field(default=None, repr=False)
    latency: float | None = None  # seconds from dispatch to the accepted first callback
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    calls: list[tuple[float, str, str, int]] = field(default_factory=list, repr=False)
    modal: dict[str, Any] | None = field(default=None, repr=False)
    autocomplete_choices: list[dict[str, Any]] | None = None

    @property
    def answered(self) -> bool:
        return self.response_type is not None

    @property
    def ephemeral(self) -> bool:
        msg = self.message
        return msg is not None and msg.is_ephemeral

    @property
    def deferred(self) -> bool:
        return self.response_type in (CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE)

    @property
    def message(self) -> FakeMessage | None:
        """The response message: the new one (types 4/5) or the edited one (types 6/7)."""
        if self.original_message_id is None:
            return None
        return self.fake.get_message(self.original_message_id)

    @property
    def followups(self) -> list[FakeMessage]:
        messages = (self.fake.get_message(mid) for mid in self.followup_ids)
        return [m for m in messages if m is not None]

    @property
    def messages(self) -> list[FakeMessage]:
        first = [self.message] if self.message is not None else []
        return first + [m for m in self.followups if m.id != self.original_message_id]

    @property
    def ephemeral_messages(self) -> list[FakeMessage]:
        """The messages of this interaction only its user sees."""
        return [m for m in self.messages if m.is_ephemeral and not m.deleted]

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.messages if m.text)

    @property
    def rejections(self) -> list[Rejection]:
        return [r for r in self.fake.rejections if r.interaction_id == self.id]

    @property
    def settled(self) -> bool:
        """Answered, and not left in the "is thinking..." state of a deferred reply."""
        if not self.answered:
            return False
        if self.response_type == CB_DEFERRED_MESSAGE:
            message = self.message
            return message is None or not message.is_loading
        return True

    async def wait_answered(self, timeout: float = 10.0) -> FakeInteraction:
        """Until the first callback is accepted; gives up once the 3 s deadline has passed."""
        deadline = self.fake.interaction_deadline + 0.5
        if self.dispatched_at is not None:
            deadline -= time.perf_counter() - self.dispatched_at
        await self.fake.wait_for(
            lambda: self.answered,
            timeout=max(0.0, min(timeout, deadline)),
            what=f"an answer to {self.name}",
            details=self.describe,
        )
        return self

    async def wait_settled(self, timeout: float = 10.0) -> FakeInteraction:
        """Until answered and, for a deferred reply, filled in (edit or first follow-up)."""
        await self.wait_answered(timeout)
        await self.fake.wait_for(
            lambda: self.settled,
            timeout=timeout,
            what=f"the deferred reply to {self.name}",
            details=self.describe,
        )
        return self

    async def wait_for_followups(self, count: int = 1, timeout: float = 10.0) -> list[FakeMessage]:
        await self.fake.wait_for(
            lambda: len(self.followup_ids) >= count,
            timeout=timeout,
            what=f"{count} follow-up(s) to {self.name}",
            details=self.describe,
        )
        return self.followups

    async def wait_quiet(self, quiet: float = 0.2, timeout: float = 10.0) -> FakeInteraction:
        """Until the bot has made no call for this interaction for ``quiet`` seconds."""
        end = time.perf_counter() + timeout
        while True:
            last = self.calls[-1][0] if self.calls else (self.dispatched_at or 0.0)
            idle = time.perf_counter() - last
            if idle >= quiet:
                return self
            if time.perf_counter() + (quiet - idle) > end:
                raise FakeDiscordTimeout(f"{self.name} kept getting calls for {timeout}s")
            await asyncio.sleep(quiet - idle)

    def describe(self) -> str:
        lines = [
            f"interaction {self.id} {self.name} by {self.user.username}: "
            f"response_type={self.response_type} latency={self.latency}"
        ]
        lines += [f"  call {method} {path} -> {status}" for _, method, path, status in self.calls]
        lines += [f"  rejected: {r}" for r in self.rejections]
        lines += [f"  {m.render()}" for m in self.messages]
        return "\n".join(lines)


@dataclass
class _Session:
    id: str
    intents: int
    identify: dict[str, Any]
    shard: tuple[int, int]
    seq: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    conn: _Connection | None = None
    resumes: int = 0
    active_since: int = 0  # when it last identified or resumed: the newest one gets events

    def owns(self, guild_id: int) -> bool:
        """Whether Discord sends this guild's events on this session (its shard)."""
        shard_id, shard_count = self.shard
        return (guild_id >> 22) % shard_count == shard_id


class _Connection:
    """One gateway websocket, with Discord's transport compression if asked for."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None, path: str) -> None:
        self.ws = ws
        self.path = path
        self.compress = compress
        self._compressor = zlib.compressobj() if compress == "zlib-stream" else None
        self._lock = asyncio.Lock()
        self.session: _Session | None = None
        self.heartbeats = 0

    async def send(self, frame: dict[str, Any]) -> None:
        data = json.dumps(frame, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                raise ConnectionResetError("gateway websocket closed")
            if self._compressor is not None:
                chunk = self._compressor.compress(data.encode())
                chunk += self._compressor.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(chunk)
            else:
                await self.ws.send_str(data)

    async def close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code=code, message=reason.encode())


@dataclass
class _Route:
    method: str
    pattern: re.Pattern[str]
    handler: Callable[..., Any]
    auth: bool


@dataclass
class _InjectedError:
    method: str
    pattern: re.Pattern[str]
    status: int
    body: Any
    headers: dict[str, str]
    times: int


class Hold:
    """Requests kept waiting (FakeDiscord.hold): `arrived` is set when the first one
    comes; `drop()` lets them go unanswered, as when the client is gone."""

    def __init__(self, method: str, pattern: re.Pattern[str]) -> None:
        self.method = method
        self.pattern = pattern
        self.arrived = asyncio.Event()
        self._dropped = asyncio.Event()

    def drop(self) -> None:
        self._dropped.set()

    async def wait(self) -> None:
        self.arrived.set()
        await self._dropped.wait()


# --------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------


class FakeDiscord:
    """Discord's REST API v10 and gateway, on 127.0.0.1, for one bot in `guilds` guilds
    (one by default), each with the same members and `channel_names`.

    A bot may connect with several shards, from one process or several: each guild's
    events go to the session of the shard that owns it, (guild_id >> 22) % shard_count,
    as Discord sends them; `guild_ids` lists the guilds, consecutive in that number.
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        check_token: bool = True,
        players: Sequence[str] = ("alice", "bob", "carol", "dave"),
        channel_names: Sequence[str] = ("dice-games",),
        bot_name: str = "Dice Games",
        heartbeat_interval_ms: int = 41_250,
        interaction_deadline: float = 3.0,
        allowed_intents: int = PRIVILEGED_INTENTS,
        guilds: int = 1,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = token
        self.host = host
        # The bot runs on this machine: it connects over loopback even when the server
        # listens on every interface.
        self.local_host = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
        self.check_token = check_token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.interaction_deadline = interaction_deadline
        self.allowed_privileged_intents = allowed_intents
        self._snowflake = _Snowflakes()

        self.application_id = self._snowflake()
        self.bot_user = FakeUser(self.application_id, bot_name.lower(), bot_name, bot=True)
        self.guild_id = self._snowflake()
        self.guild_name = "Dice Games Test Server"
        self.everyone_role_id = self.guild_id
        self.bot_role_id = self._snowflake()
        self.everyone_permissions = EVERYONE_PERMISSIONS
        self.bot_role_permissions = BOT_ROLE_PERMISSIONS
        self.bot_user.roles = [self.bot_role_id]
        self.users: dict[str, FakeUser] = {}
        for name in players:
            self.add_user(name)
        self.owner_id = next(iter(self.users.values())).id if self.users else self.bot_user.id
        self.category = FakeChannel(self._snowflake(), "Text Channels", type=4)
        self.channels: dict[int, FakeChannel] = {}
        for position, name in enumerate(channel_names):
            channel = FakeChannel(
                self._snowflake(), name, position=position, parent_id=self.category.id
            )
            self.channels[channel.id] = channel
        self.channel = next(iter(self.channels.values()))
        # More guilds: ids one apart in the bits that pick the shard, so guild i of n sits in
        # shard (first + i) % shard_count.
        self.guild_ids = [self.guild_id]
        self.guild_names = {self.guild_id: self.guild_name}
        self.guild_channels: dict[int, list[FakeChannel]] = {
            self.guild_id: list(self.channels.values())
        }
        for index in range(1, guilds):
            guild_id = ((self.guild_id >> 22) + index) << 22 | (self.guild_id & 0x3FFFFF)
            self.guild_ids.append(guild_id)
            self.guild_names[guild_id] = f"Dice Games Test Server {index + 1}"
            self.guild_channels[guild_id] = []
            for position, name in enumerate(channel_names):
                channel = FakeChannel(
                    self._snowflake(),
                    name,
                    position=position,
                    parent_id=self.category.id,
                    guild_id=guild_id,
                )
                self.channels[channel.id] = channel
                self.guild_channels[guild_id].append(channel)

        # Recorded state, for tests.
        self.commands: dict[int | None, dict[int, dict[str, Any]]] = {None: {}}
        self.app_emojis: dict[str, dict[str, Any]] = {}  # the application's emojis, by name
        self.interactions: list[FakeInteraction] = []
        self.unknown_routes: list[str] = []
        self.internal_errors: list[str] = []
        self.rejections: list[Rejection] = []
        # Set when a test SIGKILLs the bot: a delete the kill cut short between the
        # message going and its record going is repeated after the restart, by design.
        self.bot_was_killed = False
        self.requests: list[RequestRecord] = []
        self.gateway_log: list[tuple[str, int | None, str | None]] = []
        self.presence: dict[str, Any] | None = None
        self.command_syncs = 0
        self.identifies = 0
        self._messages: dict[int, FakeMessage] = {}  # channel messages, in order
        self._ephemeral: dict[int, FakeMessage] = {}  # ephemeral ones, by id
        self._interactions_by_id: dict[int, FakeInteraction] = {}
        self._interactions_by_token: dict[str, FakeInteraction] = {}
        self.sessions: dict[str, _Session] = {}
        self.session: _Session | None = None
        self._activations = 0
        self._connections: set[_Connection] = set()
        self._injected: list[_InjectedError] = []
        self._holds: list[Hold] = []
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._closing = False
        self._sock: socket.socket | None = None
        self.port = port
        # Kept for the page (bot.devserver.page): the pictures the bot uploaded.
        self.emoji_images: dict[str, bytes] = {}  # application emoji name -> PNG
        self.files: dict[int, tuple[str, bytes]] = {}  # attachment id -> (type, bytes)
        self.listeners: list[Callable[[], None]] = []  # told of every change
        self._routes = self._build_routes()

    # ---- lifecycle -------------------------------------------------------------------

    async def start(self, setup: Callable[[web.Application], None] | None = None) -> FakeDiscord:
        """Listen on `host`:`port` (a free port when 0); `setup` adds routes of its own
        (the page) before the catch-all of the REST API."""
        app = web.Application(client_max_size=ATTACHMENT_SIZE_LIMIT * 3)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        app.router.add_get(RESUME_GATEWAY_PATH, self._gateway)
        app.router.add_get(
            "/attachments/{channel_id:\\d+}/{attachment_id:\\d+}/{filename}", self._attachment
        )
        if setup is not None:
            setup(app)
        app.router.add_route("*", "/{tail:.*}", self._http)
        # A short shutdown_timeout: a bot still connected when we stop reconnects at once,
        # and aiohttp would otherwise wait up to a minute for that request's handler.
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.25)
        await self._runner.setup()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((self.host, self.port))
        self.port = self._sock.getsockname()[1]
        await web.SockSite(self._runner, self._sock).start()
        return self

    async def close(self) -> None:
        """Close every gateway socket and stop the server (a bot still running will retry
        its connection and fail until it is closed too)."""
        self._closing = True
        closing = [conn.close(1001, "stand-in shutting down") for conn in self._connections]
        await asyncio.wait_for(asyncio.gather(*closing), 5)
        if self._runner is not None:
            await asyncio.wait_for(self._runner.cleanup(), 10)
            self._runner = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://{self.local_host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.local_host}:{self.port}{GATEWAY_PATH}"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://{self.local_host}:{self.port}{RESUME_GATEWAY_PATH}"

    def env(self) -> dict[str, str]:
        """Environment variables that point ``python -m bot`` at this stand-in."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    # ---- checks and waits for tests --------------------------------------------------

    def check(self) -> None:
        """Raise AssertionError if an unknown route was hit or a request was rejected."""
        problems = [f"unknown route: {r}" for r in self.unknown_routes]
        problems += [
            f"rejected: {r}"
            for r in self.rejections
            if not (self.bot_was_killed and self._is_repeated_delete(r))
        ]
        problems += [f"stand-in error: {e}" for e in self.internal_errors]
        if problems:
            raise AssertionError("the fake Discord saw problems:\n" + "\n".join(problems))

    def describe(self) -> str:
        """A dump of the channel, the ephemeral messages and the problems, for debugging."""
        lines = ["channel:"] + [f"  {m.render()}" for m in self.channel_messages()]
        lines += ["ephemeral:"] + [f"  {m.render()}" for m in self.ephemeral_messages()]
        lines += [f"unknown route: {r}" for r in self.unknown_routes]
        lines += [f"rejected: {r}" for r in self.rejections]
        return "\n".join(lines)

    def _is_repeated_delete(self, rejection: Rejection) -> bool:
        """A DELETE answered "Unknown Message" for a message that was deleted before."""
        if rejection.method != "DELETE" or rejection.code != 10008:
            return False
        message = self._messages.get(int(rejection.path.rsplit("/", 1)[-1]))
        return message is not None and message.deleted

    def take_rejections(self, code: int | None = None) -> list[Rejection]:
        """Remove and return the rejections (with Discord error ``code``), once asserted on."""
        taken = [r for r in self.rejections if code is None or r.code == code]
        self.rejections = [r for r in self.rejections if r not in taken]
        return taken

    async def wait_for_rejection(self, code: int, timeout: float = 10.0) -> Rejection:
        found = await self.wait_for(
            lambda: next((r for r in self.rejections if r.code == code), None),
            timeout=timeout,
            what=f"a rejection with code {code}",
        )
        self.rejections.remove(found)
        return found

    def _notify(self) -> None:
        event, self._changed = self._changed, asyncio.Event()
        event.set()
        for listener in self.listeners:
            listener()

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        *,
        timeout: float = 10.0,
        what: str = "a condition",
        details: Callable[[], str] | None = None,
    ) -> Any:
        """Until ``predicate()`` is truthy (re-checked on every change); returns its value."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = end - loop.time()
            if remaining <= 0:
                text = f"timed out after {timeout:.1f}s waiting for {what}"
                if details is not None:
                    text += "\n" + details()
                problems = [f"rejected: {r}" for r in self.rejections]
                problems += [f"unknown route: {r}" for r in self.unknown_routes]
                if problems:
                    text += "\n" + "\n".join(problems)
                raise FakeDiscordTimeout(text)
            # Woken by every change here; also re-checked every 20 ms, for predicates on
            # state outside the stand-in (the bot's own objects).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.02))

    @property
    def ready(self) -> bool:
        session = self.session
        return session is not None and session.conn is not None and not session.conn.ws.closed

    def guild_of(self, channel_id: int) -> int:
        """The guild a channel belongs to."""
        channel = self.channels.get(channel_id)
        return channel.guild_id if channel is not None and channel.guild_id else self.guild_id

    def session_for(self, guild_id: int) -> _Session | None:
        """The gateway session a guild's events go to: the newest one of its shard, a
        connected one first (a dropped one keeps its events for a RESUME)."""
        owners = [session for session in self.sessions.values() if session.owns(guild_id)]
        connected = [session for session in owners if session.conn is not None]
        chosen = connected or owners
        return max(chosen, key=lambda session: session.active_since) if chosen else None

    def guild_ready(self, guild_id: int) -> bool:
        """Whether a connected session receives the guild's events."""
        session = self.session_for(guild_id)
        return session is not None and session.conn is not None and not session.conn.ws.closed

    async def wait_until_ready(self, timeout: float = 10.0) -> None:
        """Until a bot has identified and been sent READY (and GUILD_CREATE)."""
        await self.wait_for(lambda: self.ready, timeout=timeout, what="the bot to connect")

    async def wait_for_commands(self, *names: str, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Until commands with these names are registered (globally or in the guild)."""

        def registered() -> list[dict[str, Any]] | None:
            found = [self.find_command(name) for name in names]
            if all(found) and (names or self.command_syncs):
                return [c for c in found if c]
            return None

        return await self.wait_for(registered, timeout=timeout, what=f"commands {names}")

    # ---- users, commands, messages ---------------------------------------------------

    def add_user(self, username: str, *, locale: str = "en-US") -> FakeUser:
        user = FakeUser(self._snowflake(), username, username.capitalize(), locale=locale)
        self.users[username] = user
        return user

    async def add_channel(self, name: str) -> FakeChannel:
        """A new text channel in the first guild, announced to the bot (CHANNEL_CREATE)."""
        channels = self.guild_channels[self.guild_id]
        channel = FakeChannel(
            self._snowflake(), name, position=len(channels), parent_id=self.category.id
        )
        self.channels[channel.id] = channel
        channels.append(channel)
        session = self.session_for(self.guild_id)
        if session is not None:
            await self._dispatch(
                session, "CHANNEL_CREATE", self._channel_payload(channel, with_guild=True)
            )
        self._notify()
        return channel

    def user(self, who: FakeUser | str | int) -> FakeUser:
        if isinstance(who, FakeUser):
            return who
        if isinstance(who, str) and who in self.users:
            return self.users[who]
        for user in [*self.users.values(), self.bot_user]:
            if user.id == who or user.username == who:
                return user
        raise LookupError(f"no user {who!r}; users: {list(self.users)}")

    def _all_members(self) -> list[FakeUser]:
        return [self.bot_user, *self.users.values()]

    def member_permissions(self, user: FakeUser) -> int:
        if user.id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.everyone_permissions
        if self.bot_role_id in user.roles:
            perms |= self.bot_role_permissions
        return ALL_PERMISSIONS if perms & PERM_ADMINISTRATOR else perms

    @property
    def app_permissions(self) -> int:
        return self.member_permissions(self.bot_user)

    def find_command(self, name: str, *, type: int = 1) -> dict[str, Any] | None:
        """A registered command (guild commands of our guild first, then global ones)."""
        for scope in (self.guild_id, None):
            for cmd in self.commands.get(scope, {}).values():
                if cmd["name"] == name and cmd.get("type", 1) == type:
                    return cmd
        return None

    def all_commands(self) -> list[dict[str, Any]]:
        return [cmd for scope in self.commands.values() for cmd in scope.values()]

    def forget_interactions(self, *, keep: int) -> None:
        """Forget all but the newest `keep` interactions (answers to older ones are unknown)."""
        old = self.interactions[:-keep]
        del self.interactions[:-keep]
        for interaction in old:
            self._interactions_by_id.pop(interaction.id, None)
            self._interactions_by_token.pop(interaction.token, None)

    def get_message(self, message_id: int) -> FakeMessage | None:
        return self._messages.get(message_id) or self._ephemeral.get(message_id)

    def channel_messages(
        self, channel_id: int | None = None, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Messages everyone sees in the channel (not ephemeral ones), oldest first."""
        channel_id = channel_id or self.channel.id
        return [
            m
            for m in self._messages.values()
            if m.channel_id == channel_id and (include_deleted or not m.deleted)
        ]

    def ephemeral_messages(self, user: FakeUser | str | int | None = None) -> list[FakeMessage]:
        """Ephemeral messages (to ``user`` only, if given), oldest first."""
        recipient = self.user(user).id if user is not None else None
        return [
            m
            for m in self._ephemeral.values()
            if not m.deleted and (recipient is None or m.recipient_id == recipient)
        ]

    def last_message(self, channel_id: int | None = None) -> FakeMessage:
        messages = self.channel_messages(channel_id)
        if not messages:
            raise LookupError("the channel has no messages")
        return messages[-1]

    def live_message(
        self,
        channel_id: int | None = None,
        *,
        predicate: Callable[[FakeMessage], bool] | None = None,
    ) -> FakeMessage:
        """The newest message by the bot that still has components (the game's board)."""
        for message in reversed(self.channel_messages(channel_id)):
            if message.author.get("id") != str(self.bot_user.id) or not message.components:
                continue
            if predicate is None or predicate(message):
                return message
        dump = "\n".join(m.render() for m in self.channel_messages(channel_id)[-5:])
        raise LookupError(f"no live bot message with components; last messages:\n{dump}")

    async def wait_for_message(
        self, predicate: Callable[[FakeMessage], bool], *, timeout: float = 10.0
    ) -> FakeMessage:
        """Until a channel or ephemeral message satisfies ``predicate``; the newest such."""

        def find() -> FakeMessage | None:
            candidates = [*self._messages.values(), *self._ephemeral.values()]
            matches = [m for m in candidates if not m.deleted and predicate(m)]
            return max(matches, key=lambda m: m.id) if matches else None

        return await self.wait_for(find, timeout=timeout, what="a matching message")

    def inject_error(
        self,
        method: str,
        path_regex: str,
        *,
        status: int = 500,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` matching requests (path after /api/v10) with an error.

        Injected errors are deliberate, so they are not recorded as rejections.
        """
        if body is None:
            body = {"message": "500: Internal Server Error", "code": 0}
        self._injected.append(
            _InjectedError(
                method.upper(), re.compile(path_regex), status, body, dict(headers or {}), times
            )
        )

    def hold(self, method: str, path_regex: str) -> Hold:
        """Keep the next matching request (path after /api/v10) waiting without an answer
        until ``drop()``, which ends it unprocessed: a reply still in flight when the bot
        dies never reaches Discord."""
        held = Hold(method.upper(), re.compile(path_regex))
        self._holds.append(held)
        return held

    # ---- gateway control for tests -------------------------------------------------

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client should come back with RESUME."""
        conn = self.session.conn if self.session else None
        if conn is not None:
            await conn.send({"op": OP_RECONNECT, "d": None, "s": None, "t": None})

    async def drop_connection(self, code: int = 4000) -> None:
        """Close the gateway socket as if the network failed (the session stays resumable)."""
        conn = self.session.conn if self.session else None
        if conn is not None:
            await conn.close(code, "dropped by the test")

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a dispatch event to the bot (kept for a resume if the bot is away)."""
        session = self.session
        if session is None:
            raise RuntimeError("no bot is connected")
        await self._dispatch(session, event, data)

    # ---- interactions for tests ----------------------------------------------------

    async def send_command(
        self,
        user: FakeUser | str | int,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel_id: int | None = None,
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Dispatch a slash command as ``user`` typed it, built from the registered schema.

        ``command`` is the path as typed, without the slash ("pickomino new" or
        "pickomino admin reset"); ``options`` the leaf options by name (a user option takes
        a FakeUser or username, a choice option its value or its name). With ``wait`` this
        returns once the bot answered (and a deferred reply was filled in).
        """
        member = self.user(user)
        path = command.lstrip("/").split()
        if not path:
            raise ValueError("empty command")
        cmd = self.find_command(path[0])
        if cmd is None:
            names = sorted(c["name"] for c in self.all_commands())
            raise LookupError(f"/{path[0]} is not registered; registered: {names}")
        self._check_command_usable(cmd, member)
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        schema: list[dict[str, Any]] = cmd.get("options") or []
        node = data
        for name in path[1:]:
            sub = next(
                (o for o in schema if o["name"] == name and o["type"] in (1, 2)),
                None,
            )
            if sub is None:
                subs = [o["name"] for o in schema if o["type"] in (1, 2)]
                raise LookupError(f"/{command}: no subcommand {name!r}; choices: {subs}")
            child: dict[str, Any] = {"name": sub["name"], "type": sub["type"], "options": []}
            node.setdefault("options", []).append(child)
            node, schema = child, sub.get("options") or []
        if any(o["type"] in (1, 2) for o in schema):
            subs = [o["name"] for o in schema if o["type"] in (1, 2)]
            raise ValueError(f"/{command} needs a subcommand: {subs}")
        resolved: dict[str, dict[str, Any]] = {}
        values = self._build_options(command, schema, dict(options or {}), resolved)
        if values or node is not data:
            node["options"] = values
        if resolved:
            data["resolved"] = resolved
        payload = self._interaction_payload(IT_COMMAND, member, channel_id)
        payload["data"] = data
        interaction = self._new_interaction(payload, member, f"/{' '.join(path)}")
        return await self._run_interaction(interaction, wait=wait, timeout=timeout)

    async def click(
        self,
        user: FakeUser | str | int,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Click a button on a message, by ``custom_id`` or by ``label``, as ``user``."""
        member = self.user(user)
        msg = self._message_for_user(message, member)
        if label is not None:
            button = msg.button(label)
        else:
            found = next((b for b in msg.buttons if b.custom_id == custom_id), None)
            if found is None:
                ids = [b.custom_id for b in msg.buttons]
                raise LookupError(f"no button {custom_id!r} on message {msg.id}; ids: {ids}")
            button = found
        if button.url is not None or button.custom_id is None:
            raise ValueError(f"{button.label!r} is a link button: clicking it opens a URL")
        if button.disabled:
            raise ValueError(f"{button.label!r} is disabled: Discord does not let users click it")
        data = {
            "custom_id": button.custom_id,
            "component_type": CT_BUTTON,
            "id": button.component_id,
        }
        return await self._component_interaction(member, msg, data, button.custom_id, wait, timeout)

    async def select(
        self,
        user: FakeUser | str | int,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str],
        *,
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Choose ``values`` in a string select menu."""
        member = self.user(user)
        msg = self._message_for_user(message, member)
        comp = msg.component(custom_id)
        if comp.get("type") not in SELECT_TYPES or comp.get("disabled"):
            raise ValueError(f"{custom_id!r} is not an enabled select menu")
        allowed = {o["value"] for o in comp.get("options") or []}
        if comp["type"] == CT_STRING_SELECT and not set(values) <= allowed:
            raise ValueError(f"{values} are not all options of {custom_id!r}: {sorted(allowed)}")
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"{custom_id!r} takes {low}..{high} values")
        data = {
            "custom_id": custom_id,
            "component_type": comp["type"],
            "id": comp.get("id"),
            "values": list(values),
        }
        return await self._component_interaction(member, msg, data, custom_id, wait, timeout)

    async def submit_modal(
        self,
        user: FakeUser | str | int,
        opened_by: FakeInteraction,
        values: Mapping[str, str],
        *,
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Fill in and submit the modal the bot answered ``opened_by`` with."""
        member = self.user(user)
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"{opened_by.name} was not answered with a modal")
        components: list[dict[str, Any]] = []
        for row in modal.get("components") or []:
            inner = row.get("component") if row.get("type") == CT_LABEL else None
            inputs = [inner] if inner else list(row.get("components") or [])
            answered = []
            for comp in inputs:
                if comp.get("type") != CT_TEXT_INPUT:
                    continue
                value = values.get(comp["custom_id"], "")
                if comp.get("required", True) and not value:
                    raise ValueError(f"modal field {comp['custom_id']!r} is required")
                answered.append(
                    {
                        "type": CT_TEXT_INPUT,
                        "id": comp.get("id"),
                        "custom_id": comp["custom_id"],
                        "value": value,
                    }
                )
            if not answered:
                continue
            if inner is not None:
                components.append({"type": CT_LABEL, "id": row.get("id"), "component": answered[0]})
            else:
                components.append(
                    {"type": CT_ACTION_ROW, "id": row.get("id"), "components": answered}
                )
        payload = self._interaction_payload(IT_MODAL_SUBMIT, member, opened_by.channel_id)
        payload["data"] = {"custom_id": modal["custom_id"], "components": components}
        source = opened_by.source_message_id
        source_message = self.get_message(source) if source else None
        if source_message is not None:
            payload["message"] = source_message.payload()
        interaction = self._new_interaction(payload, member, f"modal {modal['custom_id']}")
        interaction.source_message_id = source
        return await self._run_interaction(interaction, wait=wait, timeout=timeout)

    # ---- interaction internals -----------------------------------------------------

    def _check_command_usable(self, cmd: dict[str, Any], user: FakeUser) -> None:
        required = cmd.get("default_member_permissions")
        if required is not None:
            needed = int(required)
            have = self.member_permissions(user)
            if (needed == 0 and have != ALL_PERMISSIONS) or have & needed != needed:
                raise PermissionError(f"{user.username} cannot see /{cmd['name']} (permissions)")
        contexts = cmd.get("contexts")
        if contexts is not None and 0 not in contexts:
            raise PermissionError(f"/{cmd['name']} is not available in guilds")

    def _build_options(
        self,
        command: str,
        schema: list[dict[str, Any]],
        given: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
    ) -> list[dict[str, Any]]:
        names = {o["name"] for o in schema}
        unknown = set(given) - names
        if unknown:
            raise ValueError(f"/{command}: unknown options {sorted(unknown)}; known: {names}")
        out = []
        for opt in schema:
            value = given.get(opt["name"])
            if value is None:
                if opt.get("required"):
                    raise ValueError(f"/{command}: option {opt['name']!r} is required")
                continue
            out.append(
                {
                    "name": opt["name"],
                    "type": opt["type"],
                    "value": self._option_value(command, opt, value, resolved),
                }
            )
        return out

    def _option_value(
        self,
        command: str,
        opt: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
    ) -> Any:
        kind, name = opt["type"], opt["name"]
        bad = ValueError(f"/{command}: {value!r} is not valid for option {name!r}")
        choices = opt.get("choices")
        if choices:
            for choice in choices:
                if value == choice["name"] and value not in [c["value"] for c in choices]:
                    value = choice["value"]
            if value not in [c["value"] for c in choices]:
                raise ValueError(f"/{command}: {name!r} must be one of {choices}")
        if kind == OPT_STRING:
            if not isinstance(value, str):
                raise bad
            if not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
                raise bad
            return value
        if kind in (OPT_INTEGER, OPT_NUMBER):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise bad
            if kind == OPT_INTEGER and not isinstance(value, int):
                raise bad
            low, high = opt.get("min_value"), opt.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValueError(f"/{command}: {name!r} must be within {low}..{high}")
            return value
        if kind == OPT_BOOLEAN:
            if not isinstance(value, bool):
                raise bad
            return value
        if kind in (OPT_USER, OPT_MENTIONABLE):
            member = self.user(value)
            resolved.setdefault("users", {})[str(member.id)] = member.payload()
            member_data = self._member_payload(member, with_user=False)
            member_data["permissions"] = str(self.member_permissions(member))
            resolved.setdefault("members", {})[str(member.id)] = member_data
            return str(member.id)
        if kind == OPT_CHANNEL:
            channel = value if isinstance(value, FakeChannel) else self.channels.get(int(value))
            if channel is None:
                raise bad
            resolved.setdefault("channels", {})[str(channel.id)] = {
                "id": str(channel.id),
                "name": channel.name,
                "type": channel.type,
                "permissions": str(ALL_PERMISSIONS),
                "parent_id": str(channel.parent_id) if channel.parent_id else None,
                "guild_id": str(self.guild_of(channel.id)),
            }
            return str(channel.id)
        if kind == OPT_ROLE:
            role = next((r for r in self._roles_payload() if r["id"] == str(value)), None)
            if role is None:
                raise bad
            resolved.setdefault("roles", {})[role["id"]] = role
            return role["id"]
        raise ValueError(f"/{command}: option type {kind} is not supported by the stand-in")

    def _message_for_user(self, message: FakeMessage | int, user: FakeUser) -> FakeMessage:
        message_id = message.id if isinstance(message, FakeMessage) else int(message)
        msg = self.get_message(message_id)
        if msg is None or msg.deleted:
            raise LookupError(f"message {message_id} does not exist (or was deleted)")
        if msg.is_ephemeral and msg.recipient_id != user.id:
            raise PermissionError(f"{user.username} cannot see ephemeral message {msg.id}")
        return msg

    async def _component_interaction(
        self,
        member: FakeUser,
        msg: FakeMessage,
        data: dict[str, Any],
        name: str,
        wait: bool,
        timeout: float,
    ) -> FakeInteraction:
        payload = self._interaction_payload(IT_COMPONENT, member, msg.channel_id)
        payload["data"] = data
        payload["message"] = msg.payload()
        interaction = self._new_interaction(payload, member, name)
        interaction.source_message_id = msg.id
        return await self._run_interaction(interaction, wait=wait, timeout=timeout)

    def _interaction_payload(
        self, kind: int, user: FakeUser, channel_id: int | None
    ) -> dict[str, Any]:
        channel = self.channels[channel_id or self.channel.id]
        user_permissions = self.member_permissions(user)
        member = self._member_payload(user)
        member["permissions"] = str(user_permissions)
        channel_data = self._channel_payload(channel, with_guild=True)
        channel_data.pop("permission_overwrites", None)
        channel_data["permissions"] = str(user_permissions)
        guild_id = self.guild_of(channel.id)
        return {
            "app_permissions": str(self.app_permissions),
            "application_id": str(self.application_id),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "authorizing_integration_owners": {"0": str(guild_id)},
            "channel": channel_data,
            "channel_id": str(channel.id),
            "context": 0,
            "entitlement_sku_ids": [],
            "entitlements": [],
            "guild": {"features": [], "id": str(guild_id), "locale": "en-US"},
            "guild_id": str(guild_id),
            "guild_locale": "en-US",
            "id": str(self._snowflake()),
            "locale": user.locale,
            "member": member,
            "token": "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96),
            "type": kind,
            "version": 1,
        }

    def _new_interaction(
        self, payload: dict[str, Any], user: FakeUser, name: str
    ) -> FakeInteraction:
        interaction = FakeInteraction(
            fake=self,
            id=int(payload["id"]),
            token=payload["token"],
            type=payload["type"],
            user=user,
            name=name,
            channel_id=int(payload["channel_id"]),
            payload=payload,
        )
        self.interactions.append(interaction)
        self._interactions_by_id[interaction.id] = interaction
        self._interactions_by_token[interaction.token] = interaction
        return interaction

    async def _run_interaction(
        self, interaction: FakeInteraction, *, wait: bool, timeout: float
    ) -> FakeInteraction:
        guild_id = self.guild_of(interaction.channel_id)
        await self.wait_for(
            lambda: self.guild_ready(guild_id),
            timeout=timeout,
            what=f"a bot shard for guild {guild_id} to connect",
        )
        session = self.session_for(guild_id)
        assert session is not None
        interaction.dispatched_at = time.perf_counter()
        await self._dispatch(session, "INTERACTION_CREATE", interaction.payload)
        if wait:
            await interaction.wait_settled(timeout)
        return interaction

    # ---- payload builders ------------------------------------------------------------

    def _member_payload(self, user: FakeUser, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "avatar": None,
            "banner": None,
            "collectibles": None,
            "communication_disabled_until": None,
            "deaf": False,
            "flags": 0,
            "joined_at": user.joined_at,
            "mute": False,
            "nick": user.nick,
            "pending": False,
            "premium_since": None,
            "roles": [str(r) for r in user.roles],
            "unusual_dm_activity_until": None,
        }
        if with_user:
            data["user"] = user.payload()
        return data

    def _roles_payload(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        def role(role_id: int, name: str, perms: int, position: int, **extra: Any) -> dict:
            return {
                "id": str(role_id),
                "name": name,
                "description": None,
                "permissions": str(perms),
                "position": position,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "icon": None,
                "unicode_emoji": None,
                "managed": False,
                "mentionable": False,
                "flags": 0,
                **extra,
            }

        return [
            # @everyone has its guild's id.
            role(guild_id or self.everyone_role_id, "@everyone", self.everyone_permissions, 0),
            role(
                self.bot_role_id,
                self.bot_user.global_name or self.bot_user.username,
                self.bot_role_permissions,
                1,
                managed=True,
                tags={"bot_id": str(self.bot_user.id)},
            ),
        ]

    def _channel_payload(self, channel: FakeChannel, *, with_guild: bool) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(channel.id),
            "type": channel.type,
            "name": channel.name,
            "position": channel.position,
            "flags": 0,
            "parent_id": str(channel.parent_id) if channel.parent_id else None,
            "permission_overwrites": [],
        }
        if channel.type == 0:
            last = channel.last_message_id
            data |= {
                "topic": channel.topic,
                "nsfw": False,
                "rate_limit_per_user": 0,
                "last_message_id": str(last) if last else None,
            }
        if with_guild:
            data["guild_id"] = str(self.guild_of(channel.id))
        return data

    def _guild_payload(self, intents: int, guild_id: int | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        members = self._all_members()
        shown = members if intents & INTENT_GUILD_PRESENCES else [self.bot_user]
        channels = [self.category, *self.guild_channels[guild_id]]
        return {
            "id": str(guild_id),
            "name": self.guild_names[guild_id],
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "widget_enabled": False,
            "verification_level": 1,
            "default_message_notifications": 1,
            "explicit_content_filter": 2,
            "roles": self._roles_payload(guild_id),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(self.guild_channels[guild_id][0].id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_presences": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "nsfw": False,
            "nsfw_level": 0,
            "incidents_data": None,
            "hub_type": None,
            "latest_onboarding_question_id": None,
            "home_header": None,
            "inventory_settings": None,
            "lazy": True,
            "joined_at": self.bot_user.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "members": [self._member_payload(m) for m in shown],
            "channels": [self._channel_payload(c, with_guild=False) for c in channels],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "embedded_activities": [],
            "activity_instances": [],
            "version": int(time.time() * 1000),
        }

    def _bot_user_me(self) -> dict[str, Any]:
        return self.bot_user.payload() | {
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
            "flags": 0,
            "premium_type": 0,
            "bio": "",
        }

    def _application_payload(self) -> dict[str, Any]:
        owner = self.user(self.owner_id) if self.users else self.bot_user
        flags = 0
        if self.allowed_privileged_intents & INTENT_GUILD_PRESENCES:
            flags |= 1 << 13
        if self.allowed_privileged_intents & INTENT_GUILD_MEMBERS:
            flags |= 1 << 15
        if self.allowed_privileged_intents & INTENT_MESSAGE_CONTENT:
            flags |= 1 << 19
        return {
            "id": str(self.application_id),
            "name": self.bot_user.global_name,
            "icon": None,
            "description": "Dice games in Discord (local stand-in)",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": secrets.token_hex(32),
            "flags": flags,
            "owner": owner.payload(),
            "team": None,
            "bot": self.bot_user.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "event_webhooks_url": None,
            "event_webhooks_status": 1,
            "tags": [],
            "integration_types_config": {"0": {}},
            "approximate_guild_count": 1,
            "approximate_user_install_count": 0,
        }

    # ---- the gateway -----------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self._closing:
            return web.Response(status=503, text="shutting down")
        ws = web.WebSocketResponse(timeout=2.0, autoping=True)
        await ws.prepare(request)
        query = request.query
        # discord.py 2.7 asks for zlib-stream (zstd-stream when zstandard is installed). We
        # honour zlib-stream as Discord does; for anything else we send plain text frames,
        # which discord.py's poll_event() accepts too.
        conn = _Connection(ws, query.get("compress"), request.path)
        self._connections.add(conn)
        try:
            if query.get("v", str(API_VERSION)) != str(API_VERSION):
                await self._gateway_reject(conn, 4012, "Invalid API version")
                return ws
            if query.get("encoding", "json") != "json":
                await self._gateway_reject(conn, 4002, "Error while decoding payload.")
                return ws
            await conn.send(
                {
                    "op": OP_HELLO,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake"]},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    await self._gateway_reject(conn, 4002, "Error while decoding payload.")
                    break
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    await self._gateway_reject(conn, 4002, "Error while decoding payload.")
                    break
                if not await self._gateway_frame(conn, frame):
                    break
        except ConnectionResetError:
            pass
        finally:
            self._connections.discard(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            self._notify()
        return ws

    async def _gateway_reject(self, conn: _Connection, code: int, reason: str) -> None:
        self.rejections.append(Rejection("GATEWAY", conn.path, code, code, reason))
        await conn.close(code, reason)

    async def _gateway_frame(self, conn: _Connection, frame: dict[str, Any]) -> bool:
        op, data = frame.get("op"), frame.get("d")
        self.gateway_log.append(("recv", op, None))
        if op == OP_HEARTBEAT:
            conn.heartbeats += 1
            await conn.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
            return True
        if op == OP_IDENTIFY:
            return await self._identify(conn, data or {})
        if op == OP_RESUME:
            return await self._resume(conn, data or {})
        if conn.session is None:
            await self._gateway_reject(conn, 4003, "Not authenticated.")
            return False
        if op == OP_PRESENCE:
            self.presence = data
            return True
        if op == OP_VOICE_STATE:
            return True
        if op == OP_REQUEST_MEMBERS:
            await self._request_members(conn.session, data or {})
            return True
        self.unknown_routes.append(f"GATEWAY op {op}")
        await conn.close(4001, "Unknown opcode.")
        return False

    def _token_ok(self, token: Any) -> bool:
        return not self.check_token or token == self.token

    async def _identify(self, conn: _Connection, data: dict[str, Any]) -> bool:
        if conn.session is not None:
            await self._gateway_reject(conn, 4005, "Already authenticated.")
            return False
        if not self._token_ok(data.get("token")):
            await self._gateway_reject(conn, 4004, "Authentication failed.")
            return False
        intents = data.get("intents")
        if not isinstance(intents, int):
            await self._gateway_reject(conn, 4013, "Invalid intent(s).")
            return False
        if intents & PRIVILEGED_INTENTS & ~self.allowed_privileged_intents:
            await self._gateway_reject(conn, 4014, "Disallowed intent(s).")
            return False
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not 0 <= shard_id < shard_count:
            await self._gateway_reject(conn, 4010, "Invalid shard.")
            return False
        self.identifies += 1
        session = _Session(secrets.token_hex(16), intents, data, (shard_id, shard_count))
        session.conn = conn
        conn.session = session
        self.sessions[session.id] = session
        if data.get("presence"):
            self.presence = data["presence"]
        session.active_since = self._activate()
        in_shard = [guild_id for guild_id in self.guild_ids if session.owns(guild_id)]
        ready = {
            "v": API_VERSION,
            "user": self._bot_user_me(),
            "user_settings": {},
            "session_type": "normal",
            "session_id": session.id,
            "resume_gateway_url": self.resume_gateway_url,
            "relationships": [],
            "private_channels": [],
            "presences": [],
            "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in in_shard],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "auth": {},
            "application": {
                "id": str(self.application_id),
                "flags": self._application_payload()["flags"],
            },
            "shard": [shard_id, shard_count],
            "_trace": ["fake-discord"],
        }
        await self._dispatch(session, "READY", ready)
        if intents & INTENT_GUILDS:
            for guild_id in in_shard:
                await self._dispatch(
                    session, "GUILD_CREATE", self._guild_payload(intents, guild_id)
                )
        self.session = session
        self._notify()
        return True

    async def _resume(self, conn: _Connection, data: dict[str, Any]) -> bool:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or not self._token_ok(data.get("token")):
            await conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return True
        if session.conn is not None and session.conn is not conn:
            await session.conn.close(4000, "session resumed elsewhere")
        seq = data.get("seq") or 0
        session.conn = conn
        conn.session = session
        session.resumes += 1
        session.active_since = self._activate()
        for frame in session.history:
            if frame["s"] > seq:
                await conn.send(frame)
        await self._dispatch(session, "RESUMED", {"_trace": ["fake-discord"]})
        self.session = session
        self._notify()
        return True

    def _activate(self) -> int:
        self._activations += 1
        return self._activations

    async def _request_members(self, session: _Session, data: dict[str, Any]) -> None:
        guild_ids = data.get("guild_id")
        if not isinstance(guild_ids, list):
            guild_ids = [guild_ids]
        for guild_id in guild_ids:
            if _as_int(guild_id) not in self.guild_ids:
                continue
            members = self._all_members()
            query = data.get("query")
            if data.get("user_ids"):
                wanted = {int(u) for u in data["user_ids"]}
                members = [m for m in members if m.id in wanted]
            elif query:
                members = [m for m in members if m.username.lower().startswith(query.lower())]
            limit = data.get("limit") or 0
            if limit:
                members = members[:limit]
            chunk: dict[str, Any] = {
                "guild_id": str(guild_id),
                "members": [self._member_payload(m) for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            if data.get("presences"):
                chunk["presences"] = []
            await self._dispatch(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _dispatch(self, session: _Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
        session.history.append(frame)
        del session.history[:-2000]
        self.gateway_log.append(("send", OP_DISPATCH, event))
        conn = session.conn
        if conn is not None:
            try:
                await asyncio.wait_for(conn.send(frame), 10)
            except (ConnectionResetError, TimeoutError):
                # Kept in the history: a RESUME replays it, as Discord does.
                await conn.close(4000, "send failed")

    async def _dispatch_message_event(self, event: str, message: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for the bot, if it asked for guild messages."""
        guild_id = self.guild_of(message.channel_id)
        session = self.session_for(guild_id)
        if session is None or not session.intents & INTENT_GUILD_MESSAGES or message.is_ephemeral:
            return
        data: dict[str, Any]
        if event == "MESSAGE_DELETE":
            data = {
                "id": str(message.id),
                "channel_id": str(message.channel_id),
                "guild_id": str(guild_id),
            }
        else:
            data = message.payload() | {"guild_id": str(guild_id)}
            author = self.user(int(message.author["id"])) if not message.webhook_id else None
            if author is not None:
                data["member"] = self._member_payload(author, with_user=False)
        await self._dispatch(session, event, data)

    # ---- the REST API: dispatch ------------------------------------------------------

    def _build_routes(self) -> list[_Route]:
        app = r"(?P<app_id>\d+)"
        cmds = rf"/applications/{app}(?:/guilds/(?P<guild_id>\d+))?/commands"
        hook = r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)"
        msg = r"(?P<message_id>@original|\d+)"
        chan = r"/channels/(?P<channel_id>\d+)"
        table: list[tuple[str, str, Callable[..., Any], bool]] = [
            ("GET", r"/gateway", self._get_gateway, False),
            ("GET", r"/gateway/bot", self._get_gateway_bot, True),
            ("GET", r"/users/@me", self._get_me, True),
            ("GET", r"/users/(?P<user_id>\d+)", self._get_user, True),
            ("GET", r"/oauth2/applications/@me", self._get_application, True),
            ("GET", r"/applications/@me", self._get_application, True),
            ("GET", rf"/applications/{app}/emojis", self._get_app_emojis, True),
            ("POST", rf"/applications/{app}/emojis", self._post_app_emoji, True),
            ("GET", cmds, self._get_commands, True),
            ("PUT", cmds, self._put_commands, True),
            ("POST", cmds, self._post_command, True),
            ("GET", cmds + r"/(?P<command_id>\d+)", self._get_command, True),
            ("PATCH", cmds + r"/(?P<command_id>\d+)", self._patch_command, True),
            ("DELETE", cmds + r"/(?P<command_id>\d+)", self._delete_command, True),
            ("POST", r"/interactions/(?P<interaction_id>\d+)/(?P<token>[^/]+)/callback",
             self._interaction_callback, False),
            ("POST", hook, self._webhook_execute, False),
            ("GET", hook + rf"/messages/{msg}", self._webhook_get_message, False),
            ("PATCH", hook + rf"/messages/{msg}", self._webhook_edit_message, False),
            ("DELETE", hook + rf"/messages/{msg}", self._webhook_delete_message, False),
            ("GET", chan, self._get_channel, True),
            ("GET", chan + r"/messages", self._get_channel_messages, True),
            ("POST", chan + r"/messages", self._create_channel_message, True),
            ("GET", chan + r"/messages/(?P<message_id>\d+)", self._get_channel_message, True),
            ("PATCH", chan + r"/messages/(?P<message_id>\d+)", self._edit_channel_message, True),
            ("DELETE", chan + r"/messages/(?P<message_id>\d+)", self._delete_channel_message,
             True),
            ("POST", chan + r"/typing", self._typing, True),
            ("GET", r"/guilds/(?P<guild_id>\d+)", self._get_guild, True),
            ("GET", r"/guilds/(?P<guild_id>\d+)/channels", self._get_guild_channels, True),
            ("GET", r"/guilds/(?P<guild_id>\d+)/members/(?P<user_id>\d+)", self._get_member,
             True),
        ]  # fmt: skip
        return [_Route(m, re.compile(f"^{p}$"), h, a) for m, p, h, a in table]

    async def _http(self, request: web.Request) -> web.StreamResponse:
        method, path = request.method, request.path
        if not path.startswith(API_PREFIX + "/"):
            return self._unknown(method, path, 404)
        sub = path[len(API_PREFIX) :]
        _REQUEST_STATE.set({})
        for held in self._holds:
            if held.method == method and held.pattern.search(sub):
                self._holds.remove(held)
                self.requests.append(RequestRecord(method, path, 503))
                await held.wait()
                return _json_response({"message": "dropped", "code": 0}, status=503)
        for injected in self._injected:
            if injected.times > 0 and injected.method == method and injected.pattern.search(sub):
                injected.times -= 1
                self.requests.append(RequestRecord(method, path, injected.status))
                return _json_response(
                    injected.body, status=injected.status, headers=injected.headers
                )
        matches = [(r, m) for r in self._routes if (m := r.pattern.match(sub)) is not None]
        route_match = next(((r, m) for r, m in matches if r.method == method), None)
        if route_match is None:
            return self._unknown(method, path, 405 if matches else 404)
        route, match = route_match
        try:
            authorization = request.headers.get("Authorization", "")
            if route.auth and not self._token_ok(authorization.removeprefix("Bot ")):
                raise DiscordHTTPError(401, 0, "401: Unauthorized")
            result = await route.handler(request, **match.groupdict())
        except DiscordHTTPError as exc:
            body = _REQUEST_STATE.get({}).get("json_body")
            interaction = _REQUEST_STATE.get({}).get("interaction")
            self.rejections.append(
                Rejection(
                    method,
                    path,
                    exc.status,
                    exc.code,
                    exc.message,
                    exc.errors,
                    body,
                    interaction.id if interaction is not None else None,
                )
            )
            self.requests.append(RequestRecord(method, path, exc.status))
            self._notify()
            return _json_response(exc.body(), status=exc.status)
        except Exception:
            # A bug in the stand-in, not the bot. Answer 400, not 500: discord.py retries a
            # 500 for seconds. check() reports it with the traceback.
            self.internal_errors.append(f"{method} {path}\n{traceback.format_exc()}")
            self.requests.append(RequestRecord(method, path, 400))
            self._notify()
            body = {"message": "fake Discord internal error (see fake.internal_errors)"}
            return _json_response(body | {"code": 0}, status=400)
        status = 204 if result is None else 200
        self.requests.append(RequestRecord(method, path, status))
        self._notify()
        if result is None:
            return web.Response(status=204)
        return _json_response(result)

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        """An uploaded file, as Discord's CDN serves it."""
        stored = self.files.get(int(request.match_info["attachment_id"]))
        if stored is None:
            return web.Response(status=404, text="404: Not Found")
        content_type, data = stored
        return web.Response(body=data, content_type=content_type)

    def _unknown(self, method: str, path: str, status: int) -> web.Response:
        self.unknown_routes.append(f"{method} {path}")
        self.requests.append(RequestRecord(method, path, status))
        self._notify()
        text = "404: Not Found" if status == 404 else "405: Method Not Allowed"
        return _json_response({"message": text, "code": 0}, status=status)

    async def _read_body(self, request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
        """The JSON body (or multipart payload_json) and any uploaded files."""
        files: list[dict[str, Any]] = []
        if request.content_type == "multipart/form-data":
            body: Any = {}
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    try:
                        body = json.loads(await part.text())
                    except ValueError as exc:
                        raise DiscordHTTPError(
                            400, 50109, "The request body contains invalid JSON."
                        ) from exc
                elif part.name and part.name.startswith("files["):
                    content = await part.read()
                    if len(content) > ATTACHMENT_SIZE_LIMIT:
                        raise DiscordHTTPError(413, 40005, "Request entity too large")
                    index = _as_int(part.name[len("files[") : -1]) or 0
                    files.append(
                        {
                            "index": index,
                            "filename": part.filename or "file",
                            "size": len(content),
                            "content_type": part.headers.get("Content-Type"),
                            "data": content,
                        }
                    )
            _REQUEST_STATE.get({})["json_body"] = body
            return body, files
        raw = await request.read()
        if not raw:
            return None, files
        try:
            body = json.loads(raw)
        except ValueError as exc:
            raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.") from exc
        _REQUEST_STATE.get({})["json_body"] = body
        return body, files

    async def _json_object(self, request: web.Request) -> tuple[dict[str, Any], list[dict]]:
        body, files = await self._read_body(request)
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise DiscordHTTPError(
                400, 50035, "Invalid Form Body", {"_errors": [{"code": "MODEL_TYPE_CONVERT",
                "message": "Only dictionaries may be used in a ModelType"}]}
            )  # fmt: skip
        return body, files

    # ---- REST: login, gateway, users, guild ----------------------------------------

    async def _get_gateway(self, request: web.Request) -> dict[str, Any]:
        return {"url": self.gateway_url}

    async def _get_gateway_bot(self, request: web.Request) -> dict[str, Any]:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000 - self.identifies,
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            },
        }

    async def _get_me(self, request: web.Request) -> dict[str, Any]:
        return self._bot_user_me()

    async def _get_user(self, request: web.Request, user_id: str) -> dict[str, Any]:
        try:
            return self.user(int(user_id)).payload()
        except LookupError as exc:
            raise DiscordHTTPError(404, 10013, "Unknown User") from exc

    async def _get_application(self, request: web.Request) -> dict[str, Any]:
        return self._application_payload()

    def _check_guild(self, guild_id: str | None) -> None:
        if guild_id is not None and int(guild_id) not in self.guild_ids:
            raise DiscordHTTPError(404, 10004, "Unknown Guild")

    async def _get_guild(self, request: web.Request, guild_id: str) -> dict[str, Any]:
        self._check_guild(guild_id)
        data = self._guild_payload(0, int(guild_id))
        for key in ("joined_at", "large", "unavailable", "member_count", "members", "channels",
                    "threads", "presences", "voice_states", "stage_instances",
                    "guild_scheduled_events", "soundboard_sounds", "embedded_activities",
                    "activity_instances", "lazy", "version"):  # fmt: skip
            data.pop(key, None)
        if _truthy_query(request.query.get("with_counts")):
            data["approximate_member_count"] = len(self._all_members())
            data["approximate_presence_count"] = 0
        return data

    async def _get_guild_channels(self, request: web.Request, guild_id: str) -> list[dict]:
        self._check_guild(guild_id)
        channels = [self.category, *self.guild_channels[int(guild_id)]]
        return [self._channel_payload(c, with_guild=True) for c in channels]

    async def _get_member(self, request: web.Request, guild_id: str, user_id: str) -> dict:
        self._check_guild(guild_id)
        try:
            return self._member_payload(self.user(int(user_id)))
        except LookupError as exc:
            raise DiscordHTTPError(404, 10007, "Unknown Member") from exc

    def _text_channel(self, channel_id: str) -> FakeChannel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise DiscordHTTPError(404, 10003, "Unknown Channel")
        return channel

    async def _get_channel(self, request: web.Request, channel_id: str) -> dict[str, Any]:
        if int(channel_id) == self.category.id:
            return self._channel_payload(self.category, with_guild=True)
        return self._channel_payload(self._text_channel(channel_id), with_guild=True)

    async def _typing(self, request: web.Request, channel_id: str) -> None:
        self._text_channel(channel_id)
        return None

    # ---- REST: application commands ------------------------------------------------

    # ---- REST: application emojis ---------------------------------------------------

    async def _get_app_emojis(self, request: web.Request, app_id: str) -> dict[str, Any]:
        self._command_scope(app_id, None)
        return {"items": list(self.app_emojis.values())}

    async def _post_app_emoji(self, request: web.Request, app_id: str) -> dict[str, Any]:
        """Discord's checks: a 2-32 character name of A-Z a-z 0-9 _, unique in the
        application; a base64 data URI image of at most 256 KiB."""
        self._command_scope(app_id, None)
        body, _ = await self._read_body(request)
        errors = _FormErrors()
        name = body.get("name") if isinstance(body, dict) else None
        image = body.get("image") if isinstance(body, dict) else None
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]{2,32}", name):
            errors.add(("name",), "BASE_TYPE_BAD_EMOJI_NAME", "Invalid emoji name")
        elif name in self.app_emojis:
            errors.add(("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Name already taken")
        match = re.fullmatch(r"data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=]+)", str(image))
        if match is None:
            errors.add(("image",), "BINARY_TYPE_INVALID_IMAGE", "Invalid image data")
        elif len(match.group(2)) * 3 // 4 > 256 * 1024:
            errors.add(("image",), "BINARY_TYPE_MAX_SIZE", "Image too large (256 KiB at most)")
        errors.raise_if_any()
        emoji: dict[str, Any] = {
            "id": str(self._snowflake()),
            "name": name,
            "roles": [],
            "user": self.bot_user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        self.app_emojis[str(name)] = emoji
        assert match is not None  # else raise_if_any raised
        self.emoji_images[str(name)] = base64.b64decode(match.group(2))
        return emoji

    def _command_scope(self, app_id: str, guild_id: str | None) -> int | None:
        if int(app_id) != self.application_id:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        if guild_id is not None and int(guild_id) != self.guild_id:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        return int(guild_id) if guild_id is not None else None

    def _store_command(
        self, scope: int | None, body: dict[str, Any], existing: dict[str, Any] | None
    ) -> dict[str, Any]:
        command_id = int(existing["id"]) if existing else self._snowflake()
        perms = body.get("default_member_permissions")
        stored: dict[str, Any] = {
            "id": str(command_id),
            "application_id": str(self.application_id),
            "version": str(self._snowflake()),
            "default_member_permissions": str(perms) if perms is not None else None,
            "type": body.get("type", 1),
            "name": body["name"],
            "name_localizations": body.get("name_localizations") or None,
            "description": body.get("description") or "",
            "description_localizations": body.get("description_localizations") or None,
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
            "nsfw": bool(body.get("nsfw", False)),
        }
        if body.get("options"):
            stored["options"] = json.loads(json.dumps(body["options"]))
        if scope is None:
            dm_permission = body.get("dm_permission")
            stored["dm_permission"] = True if dm_permission is None else bool(dm_permission)
        else:
            stored["guild_id"] = str(scope)
        self.commands.setdefault(scope, {})[command_id] = stored
        return stored

    async def _get_commands(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        scope = self._command_scope(app_id, guild_id)
        return list(self.commands.get(scope, {}).values())

    async def _put_commands(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        scope = self._command_scope(app_id, guild_id)
        body, _ = await self._read_body(request)
        errors = _FormErrors()
        commands = _check_list(errors, (), body, max_len=130)
        keys: set[tuple[str, int]] = set()
        per_type: dict[int, int] = {}
        for index, cmd in enumerate(commands):
            _validate_command(errors, (index,), cmd)
            if isinstance(cmd, dict):
                key = (str(cmd.get("name")), cmd.get("type", 1))
                if key in keys:
                    errors.add(
                        (index, "name"),
                        "APPLICATION_COMMANDS_DUPLICATE_NAME",
                        f"Application command names must be unique: {key[0]}",
                    )
                keys.add(key)
                per_type[key[1]] = per_type.get(key[1], 0) + 1
        if per_type.get(1, 0) > 100 or per_type.get(2, 0) > 15 or per_type.get(3, 0) > 15:
            errors.add((), "APPLICATION_COMMANDS_TOO_MANY", "Maximum number of commands reached")
        errors.raise_if_any()
        old = {(c["name"], c["type"]): c for c in self.commands.get(scope, {}).values()}
        self.commands[scope] = {}
        stored = [
            self._store_command(scope, cmd, old.get((cmd["name"], cmd.get("type", 1))))
            for cmd in commands
        ]
        self.command_syncs += 1
        return stored

    async def _post_command(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> dict[str, Any]:
        scope = self._command_scope(app_id, guild_id)
        body, _ = await self._json_object(request)
        errors = _FormErrors()
        _validate_command(errors, (), body)
        errors.raise_if_any()
        existing = next(
            (
                c
                for c in self.commands.get(scope, {}).values()
                if c["name"] == body["name"] and c["type"] == body.get("type", 1)
            ),
            None,
        )
        self.command_syncs += 1
        return self._store_command(scope, body, existing)

    def _command(self, scope: int | None, command_id: str) -> dict[str, Any]:
        cmd = self.commands.get(scope, {}).get(int(command_id))
        if cmd is None:
            raise DiscordHTTPError(404, 10063, "Unknown application command")
        return cmd

    async def _get_command(
        self, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None
    ) -> dict[str, Any]:
        return self._command(self._command_scope(app_id, guild_id), command_id)

    async def _patch_command(
        self, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None
    ) -> dict[str, Any]:
        scope = self._command_scope(app_id, guild_id)
        cmd = self._command(scope, command_id)
        body, _ = await self._json_object(request)
        merged = {k: v for k, v in cmd.items() if k not in ("id", "version")} | body
        errors = _FormErrors()
        _validate_command(errors, (), merged)
        errors.raise_if_any()
        self.command_syncs += 1
        return self._store_command(scope, merged, cmd)

    async def _delete_command(
        self, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None
    ) -> None:
        scope = self._command_scope(app_id, guild_id)
        self._command(scope, command_id)
        del self.commands[scope][int(command_id)]
        return None

    # ---- REST: messages (shared) ---------------------------------------------------

    def _attachments(
        self,
        channel_id: int,
        existing: list[dict[str, Any]],
        refs: Any,
        files: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """Keep the existing attachments listed in ``refs`` and add the uploaded files."""
        kept: list[dict[str, Any]] = []
        if isinstance(refs, list):
            by_id = {a["id"]: a for a in existing}
            kept = [by_id[str(r.get("id"))] for r in refs if str(r.get("id")) in by_id]
        else:
            kept = list(existing)
        for upload in files:
            attachment_id = str(self._snowflake())
            content_type = upload["content_type"] or "application/octet-stream"
            self.files[int(attachment_id)] = (content_type, bytes(upload["data"]))
            url = f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{upload['filename']}"
            kept.append(
                {
                    "id": attachment_id,
                    "filename": upload["filename"],
                    "size": upload["size"],
                    "url": url,
                    "proxy_url": url,
                    "content_type": upload["content_type"],
                    "content_scan_version": 0,
                }
            )
        return kept

    def _new_message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[dict[str, Any]],
        *,
        prefix: Path,
        allowed_flags: int,
        extra_flags: int = 0,
        **fields: Any,
    ) -> FakeMessage:
        errors = _FormErrors()
        _validate_message_fields(errors, prefix, body, allowed_flags=allowed_flags)
        errors.raise_if_any()
        flags = ((body.get("flags") or 0) & allowed_flags) | extra_flags
        message = FakeMessage(
            id=self._snowflake(),
            channel_id=channel_id,
            guild_id=self.guild_of(channel_id),
            author=self.bot_user.payload(),
            content=body.get("content") or "",
            embeds=_normalize_embeds(body.get("embeds") or []),
            components=_number_components(body.get("components") or []),
            attachments=self._attachments(channel_id, [], body.get("attachments"), files),
            flags=flags,
            tts=bool(body.get("tts")),
            **fields,
        )
        if not flags & FLAG_LOADING:
            self._check_not_empty(message, body)
        return message

    @staticmethod
    def _check_not_empty(message: FakeMessage, body: Mapping[str, Any]) -> None:
        if message.flags & FLAG_IS_COMPONENTS_V2:
            if not message.components:
                raise DiscordHTTPError(400, 50006, "Cannot send an empty message")
            return
        if (
            not message.content.strip()
            and not message.embeds
            and not message.attachments
            and not body.get("sticker_ids")
            and not body.get("poll")
        ):
            raise DiscordHTTPError(400, 50006, "Cannot send an empty message")

    def _store_message(self, message: FakeMessage) -> None:
        if message.is_ephemeral:
            self._ephemeral[message.id] = message
        else:
            self._messages[message.id] = message
            channel = self.channels.get(message.channel_id)
            if channel is not None:
                channel.last_message_id = message.id

    def _edit_message(
        self,
        message: FakeMessage,
        body: dict[str, Any],
        files: list[dict[str, Any]],
        *,
        prefix: Path,
    ) -> None:
        """Apply a PATCH (or an update callback): fields present replace, ``null`` clears."""
        errors = _FormErrors()
        body = dict(body)
        flags_given = body.get("flags")
        if flags_given is not None and message.flags & FLAG_IS_COMPONENTS_V2:
            body["flags"] = flags_given | FLAG_IS_COMPONENTS_V2
        elif flags_given is None and message.flags & FLAG_IS_COMPONENTS_V2:
            body["flags"] = FLAG_IS_COMPONENTS_V2
        _validate_message_fields(
            errors, prefix, body, allowed_flags=INTERACTION_MESSAGE_FLAGS | FLAG_LOADING
        )
        errors.raise_if_any()
        candidate = dataclasses.replace(message, history=[])
        if "content" in body:
            candidate.content = body["content"] or ""
        if "embeds" in body:
            candidate.embeds = _normalize_embeds(body["embeds"] or [])
        if "components" in body:
            candidate.components = _number_components(body["components"] or [])
        if "attachments" in body or files:
            candidate.attachments = self._attachments(
                message.channel_id, message.attachments, body.get("attachments"), files
            )
        keep = FLAG_EPHEMERAL | FLAG_IS_COMPONENTS_V2
        if flags_given is not None:
            changeable = FLAG_SUPPRESS_EMBEDS | FLAG_IS_COMPONENTS_V2
            candidate.flags = (message.flags & keep) | (flags_given & changeable)
        else:
            candidate.flags = message.flags & ~FLAG_LOADING
        candidate.flags &= ~FLAG_LOADING
        self._check_not_empty(candidate, body)
        message.history.append(message.payload())
        message.content = candidate.content
        message.embeds = candidate.embeds
        message.components = candidate.components
        message.attachments = candidate.attachments
        message.flags = candidate.flags
        message.edited_timestamp = _now_iso()

    # ---- REST: channel messages ----------------------------------------------------

    def _channel_message(self, channel_id: str, message_id: str) -> FakeMessage:
        self._text_channel(channel_id)
        message = self._messages.get(int(message_id))
        if message is None or message.deleted or message.channel_id != int(channel_id):
            raise _unknown_message()
        return message

    def _check_bot_can_send(self) -> None:
        perms = self.app_permissions
        if not perms & PERM_VIEW_CHANNEL:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        if not perms & PERM_SEND_MESSAGES:
            raise DiscordHTTPError(403, 50013, "Missing Permissions")

    async def _create_channel_message(
        self, request: web.Request, channel_id: str
    ) -> dict[str, Any]:
        channel = self._text_channel(channel_id)
        self._check_bot_can_send()
        body, files = await self._json_object(request)
        reference = body.get("message_reference")
        fields: dict[str, Any] = {}
        if isinstance(reference, dict) and reference.get("message_id"):
            target = self._messages.get(int(reference["message_id"]))
            if target is None and reference.get("fail_if_not_exists", True):
                raise DiscordHTTPError(
                    400, 50035, "Invalid Form Body", {"message_reference": {"_errors": [
                        {"code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                         "message": "Unknown message"}]}}
                )  # fmt: skip
            fields = {
                "type": 19,
                "message_reference": {
                    "type": 0,
                    "message_id": str(reference["message_id"]),
                    "channel_id": str(channel.id),
                    "guild_id": str(self.guild_of(channel.id)),
                },
            }
        message = self._new_message(
            channel.id, body, files, prefix=(), allowed_flags=CHANNEL_MESSAGE_FLAGS, **fields
        )
        self._store_message(message)
        await self._dispatch_message_event("MESSAGE_CREATE", message)
        return message.payload()

    async def _get_channel_messages(self, request: web.Request, channel_id: str) -> list[dict]:
        self._text_channel(channel_id)
        limit = _as_int(request.query.get("limit", "50"))
        if limit is None or not 1 <= limit <= 100:
            raise DiscordHTTPError(
                400, 50035, "Invalid Form Body", {"limit": {"_errors": [
                    {"code": "NUMBER_TYPE_MAX", "message": "Must be between 1 and 100."}]}}
            )  # fmt: skip
        messages = self.channel_messages(int(channel_id))
        before = _as_int(request.query.get("before"))
        after = _as_int(request.query.get("after"))
        if before is not None:
            messages = [m for m in messages if m.id < before]
        if after is not None:
            messages = [m for m in messages if m.id > after][:limit]
        newest_first = list(reversed(messages))[:limit]
        return [m.payload() for m in newest_first]

    async def _get_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> dict[str, Any]:
        return self._channel_message(channel_id, message_id).payload()

    async def _edit_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> dict[str, Any]:
        message = self._channel_message(channel_id, message_id)
        if message.author.get("id") != str(self.bot_user.id):
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._json_object(request)
        self._edit_message(message, body, files, prefix=())
        await self._dispatch_message_event("MESSAGE_UPDATE", message)
        return message.payload()

    async def _delete_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> None:
        message = self._channel_message(channel_id, message_id)
        is_own = message.author.get("id") == str(self.bot_user.id)
        if not is_own and not self.app_permissions & PERM_MANAGE_MESSAGES:
            raise DiscordHTTPError(403, 50013, "Missing Permissions")
        message.deleted = True
        await self._dispatch_message_event("MESSAGE_DELETE", message)
        return None

    # ---- REST: interaction callback ------------------------------------------------

    def _interaction_message_fields(
        self, interaction: FakeInteraction, *, followup: bool = False
    ) -> dict[str, Any]:
        metadata: dict[str, Any] = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": interaction.user.payload(),
            "authorizing_integration_owners": {"0": str(self.guild_of(interaction.channel_id))},
        }
        fields: dict[str, Any] = {
            "webhook_id": self.application_id,
            "application_id": self.application_id,
            "interaction_id": interaction.id,
            "interaction_metadata": metadata,
        }
        if interaction.type == IT_COMMAND:
            metadata["name"] = interaction.name.lstrip("/")
            metadata["command_type"] = 1
            fields["interaction"] = {
                "id": str(interaction.id),
                "type": IT_COMMAND,
                "name": interaction.name.lstrip("/"),
                "user": interaction.user.payload(),
            }
            fields["type"] = 20
        elif interaction.source_message_id is not None:
            metadata["interacted_message_id"] = str(interaction.source_message_id)
            if not followup:
                fields["type"] = 19
                fields["message_reference"] = {
                    "type": 0,
                    "message_id": str(interaction.source_message_id),
                    "channel_id": str(interaction.channel_id),
                    "guild_id": str(self.guild_of(interaction.channel_id)),
                }
        if followup:
            fields["type"] = 0
            if interaction.original_message_id is not None:
                metadata["original_response_message_id"] = str(interaction.original_message_id)
        return fields

    async def _interaction_callback(
        self, request: web.Request, interaction_id: str, token: str
    ) -> dict[str, Any] | None:
        arrived = time.perf_counter()
        interaction = self._interactions_by_id.get(int(interaction_id))
        if interaction is None or interaction.token != token:
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        _REQUEST_STATE.get({})["interaction"] = interaction
        body, files = await self._json_object(request)
        # No await below this point until the acknowledgement is recorded: two racing
        # callbacks must not both get through.
        if interaction.response_type is not None:
            interaction.calls.append((arrived, "POST", "callback", 400))
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        assert interaction.dispatched_at is not None
        if arrived - interaction.dispatched_at > self.interaction_deadline:
            interaction.calls.append((arrived, "POST", "callback", 404))
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        kind = body.get("type")
        data = body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS.get(interaction.type, set()):
            interaction.calls.append((arrived, "POST", "callback", 400))
            raise DiscordHTTPError(
                400, 50035, "Invalid Form Body", {"type": {"_errors": [
                    {"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                     "message": f"Interaction response type {kind} is not valid here"}]}}
            )  # fmt: skip
        if not isinstance(data, dict):
            raise DiscordHTTPError(400, 50035, "Invalid Form Body", {"data": {"_errors": [
                {"code": "MODEL_TYPE_CONVERT", "message": "Only dictionaries may be used"}]}}
            )  # fmt: skip
        message: FakeMessage | None = None
        if kind == CB_MESSAGE:
            message = self._new_message(
                interaction.channel_id,
                data,
                files,
                prefix=("data",),
                allowed_flags=INTERACTION_MESSAGE_FLAGS,
                recipient_id=interaction.user.id,
                **self._interaction_message_fields(interaction),
            )
        elif kind == CB_DEFERRED_MESSAGE:
            flags = FLAG_LOADING | ((data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._new_message(
                interaction.channel_id,
                {},
                [],
                prefix=("data",),
                allowed_flags=0,
                extra_flags=flags,
                recipient_id=interaction.user.id,
                **self._interaction_message_fields(interaction),
            )
        elif kind in (CB_DEFERRED_UPDATE, CB_UPDATE):
            source = self.get_message(interaction.source_message_id or 0)
            if source is None or source.deleted:
                raise _unknown_message()
            if kind == CB_UPDATE:
                self._edit_message(source, data, files, prefix=("data",))
            message = source
        elif kind == CB_MODAL:
            errors = _FormErrors()
            _validate_modal(errors, ("data",), data)
            errors.raise_if_any()
            interaction.modal = json.loads(json.dumps(data))
            interaction.modal["components"] = _number_components(data.get("components") or [])
        elif kind == CB_AUTOCOMPLETE:
            errors = _FormErrors()
            _check_list(errors, ("data", "choices"), data.get("choices"), max_len=25)
            errors.raise_if_any()
            interaction.autocomplete_choices = data.get("choices") or []

        interaction.response_type = kind
        interaction.response = body
        interaction.latency = arrived - interaction.dispatched_at
        interaction.calls.append((arrived, "POST", "callback", 200))
        resource: dict[str, Any] = {"type": kind}
        if message is not None:
            interaction.original_message_id = message.id
            if kind in (CB_MESSAGE, CB_DEFERRED_MESSAGE):
                self._store_message(message)
            resource["message"] = message.payload()
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": kind == CB_DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message.is_ephemeral),
            }
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
        if kind in (CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_UPDATE, CB_MODAL):
            answer["resource"] = resource
        if message is not None and kind in (CB_MESSAGE, CB_DEFERRED_MESSAGE):
            await self._dispatch_message_event("MESSAGE_CREATE", message)
        elif message is not None and kind == CB_UPDATE:
            await self._dispatch_message_event("MESSAGE_UPDATE", message)
        if not _truthy_query(request.query.get("with_response")):
            return None
        return answer

    # ---- REST: webhooks (follow-ups and the original response) ---------------------

    def _webhook_interaction(
        self, request: web.Request, app_id: str, token: str
    ) -> FakeInteraction:
        if int(app_id) != self.application_id:
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        interaction = self._interactions_by_token.get(token)
        if interaction is None:
            raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
        _REQUEST_STATE.get({})["interaction"] = interaction
        if interaction.response_type is None:
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        return interaction

    def _webhook_message(self, interaction: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            target = interaction.original_message_id
        else:
            target = int(message_id)
            if target != interaction.original_message_id and target not in interaction.followup_ids:
                raise _unknown_message()
        message = self.get_message(target) if target is not None else None
        if message is None or message.deleted:
            raise _unknown_message()
        return message

    async def _webhook_execute(
        self, request: web.Request, app_id: str, token: str
    ) -> dict[str, Any] | None:
        arrived = time.perf_counter()
        interaction = self._webhook_interaction(request, app_id, token)
        body, files = await self._json_object(request)
        original = interaction.message
        if (
            interaction.response_type == CB_DEFERRED_MESSAGE
            and original is not None
            and original.is_loading
        ):
            # The first follow-up after a deferred reply fills in the "thinking" message.
            self._edit_message(original, body, files, prefix=())
            message = original
            await self._dispatch_message_event("MESSAGE_UPDATE", message)
        else:
            message = self._new_message(
                interaction.channel_id,
                body,
                files,
                prefix=(),
                allowed_flags=INTERACTION_MESSAGE_FLAGS,
                recipient_id=interaction.user.id,
                **self._interaction_message_fields(interaction, followup=True),
            )
            self._store_message(message)
            await self._dispatch_message_event("MESSAGE_CREATE", message)
        interaction.followup_ids.append(message.id)
        interaction.calls.append((arrived, "POST", "followup", 200))
        if not _truthy_query(request.query.get("wait")):
            return None
        return message.payload()

    async def _webhook_get_message(
        self, request: web.Request, app_id: str, token: str, message_id: str
    ) -> dict[str, Any]:
        interaction = self._webhook_interaction(request, app_id, token)
        return self._webhook_message(interaction, message_id).payload()

    async def _webhook_edit_message(
        self, request: web.Request, app_id: str, token: str, message_id: str
    ) -> dict[str, Any]:
        arrived = time.perf_counter()
        interaction = self._webhook_interaction(request, app_id, token)
        message = self._webhook_message(interaction, message_id)
        body, files = await self._json_object(request)
        self._edit_message(message, body, files, prefix=())
        interaction.calls.append((arrived, "PATCH", f"messages/{message_id}", 200))
        await self._dispatch_message_event("MESSAGE_UPDATE", message)
        return message.payload()

    async def _webhook_delete_message(
        self, request: web.Request, app_id: str, token: str, message_id: str
    ) -> None:
        arrived = time.perf_counter()
        interaction = self._webhook_interaction(request, app_id, token)
        message = self._webhook_message(interaction, message_id)
        message.deleted = True
        interaction.calls.append((arrived, "DELETE", f"messages/{message_id}", 204))
        await self._dispatch_message_event("MESSAGE_DELETE", message)
        return None


# --------------------------------------------------------------------------------------
# Running a discord.py client against the stand-in, in this process.
# --------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def running_client(fake: FakeDiscord, client: Any, *, timeout: float = 10.0) -> AsyncIterator:
    """Log ``client`` in to ``fake``, connect it, wait for on_ready; close it all on exit.

    The endpoint overrides are applied here; restoring discord.py's globals afterwards is
    the job of the ``discord_globals`` fixture.
    """
    from bot.endpoints import apply_endpoint_overrides

    apply_endpoint_overrides(fake.api_base, fake.gateway_url)
    task: asyncio.Task[None] | None = None
    try:
        await asyncio.wait_for(client.login(fake.token), timeout)
        task = asyncio.create_task(client.connect(reconnect=True), name="fake-discord-client")
        ready = asyncio.ensure_future(client.wait_until_ready())
        done, _ = await asyncio.wait({ready, task}, timeout=timeout, return_when="FIRST_COMPLETED")
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raise what stopped the client
            raise FakeDiscordTimeout(f"the client was not ready within {timeout}s")
        yield client
    finally:
        await asyncio.wait_for(client.close(), timeout)
        if task is not None:
            # connect() returns soon after close(), unless it sleeps before a reconnect
            # (the stand-in went away first): then it is cancelled.
            done, _ = await asyncio.wait({task}, timeout=1.0)
            if task in done:
                task.result()  # re-raise whatever stopped the client
            else:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
