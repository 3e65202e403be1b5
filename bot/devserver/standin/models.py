"""The stand-in's model of Discord: users, channels (in a guild or private), guilds the
bot is not in, messages (with helpers for assertions), the interactions it dispatched,
and its records of what it saw. Nothing here knows the stand-in's state: an interaction
reaches the messages through the `InteractionWorld` it is given."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.devserver.standin.constants import (
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CT_BUTTON,
    DISCORD_EPOCH_MS,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
)
from bot.devserver.standin.errors import FakeDiscordTimeout

CHANNEL_DM, CHANNEL_GROUP_DM = 1, 3
PRIVATE_CHANNEL_TYPES = frozenset({CHANNEL_DM, CHANNEL_GROUP_DM})


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


class Snowflakes:
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


def as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


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
    detail: str | None = None  # what the stand-in knows beyond Discord's answer

    def __str__(self) -> str:
        text = f"{self.method} {self.path} -> {self.status} {self.code} {self.message}"
        if self.errors:
            text += f" {json.dumps(self.errors)}"
        if self.detail:
            text += f" ({self.detail})"
        return text


@dataclass
class RequestRecord:
    """One request the stand-in answered: `bot_token` if it was authorized as the bot
    ("Authorization: Bot ..."), not by an interaction's token; `channel_id` the channel
    it concerns (the route's, or the interaction's for a webhook route), if any."""

    method: str
    path: str
    status: int
    at: float = field(default_factory=time.monotonic)
    bot_token: bool = False
    channel_id: int | None = None


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
    joined_at: str = field(default_factory=now_iso)
    # Whether this person installed the app to their account (a user install): only
    # then may they use it where the bot is not (group DMs, servers without the bot).
    installed_app: bool = True

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
    """A channel: in a guild (a text channel, a category, a thread), or private (a DM,
    type 1, or a group DM, type 3) with its `recipients` and no guild."""

    id: int
    name: str
    type: int = 0
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    last_message_id: int | None = None
    guild_id: int = 0  # 0: the first guild (the stand-in's `guild_id`); unused if private
    recipients: list[int] = field(default_factory=list)  # user ids of a private channel
    owner_id: int | None = None  # who made a group DM

    @property
    def is_private(self) -> bool:
        return self.type in PRIVATE_CHANNEL_TYPES


@dataclass
class FakeGuild:
    """A server where people installed the app to their account but the bot is not a
    member: Discord sends the bot nothing of it, and refuses its bot token there."""

    id: int
    name: str
    everyone_permissions: int
    owner_id: int
    channels: list[FakeChannel] = field(default_factory=list)


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
    timestamp: str = field(default_factory=now_iso)
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
        texts = [c.get("content", "") for c in walk(self.components) if c.get("type") == 10]
        return "\n".join(p for p in (self.content, self.embed_text, *texts) if p)

    @property
    def buttons(self) -> list[FakeButton]:
        found: list[FakeButton] = []
        for row_index, row in enumerate(self.components):
            for comp in walk([row]):
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
        for comp in walk(self.components):
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
            # The message's own: an edit replaces them (number_components' copy of the
            # body), nothing changes them in place, and a deep copy of every payload was
            # a twentieth of a 1,000-game soak's stand-in.
            "components": self.components,
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


def walk(components: Iterable[Any]) -> Iterable[dict[str, Any]]:
    """Every component, depth first, through rows, sections, containers and labels."""
    for comp in components:
        if not isinstance(comp, dict):
            continue
        yield comp
        yield from walk(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from walk([comp[key]])


def number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copy components, giving each one without an ``id`` the next free number, as Discord."""
    copied: list[dict[str, Any]] = json.loads(json.dumps(components))
    used = {c["id"] for c in walk(copied) if isinstance(c.get("id"), int)}
    counter = itertools.count(1)
    for comp in walk(copied):
        if not isinstance(comp.get("id"), int):
            comp["id"] = next(n for n in counter if n not in used)
    return copied


def normalize_embeds(embeds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for embed in embeds:
        copy = json.loads(json.dumps(embed))
        copy.setdefault("type", "rich")
        out.append(copy)
    return out


class InteractionWorld(Protocol):
    """What an interaction reads of the stand-in: its messages, its rejections and its
    waits (the stand-in's state meets this; models do not import it)."""

    interaction_deadline: float
    rejections: list[Rejection]

    def get_message(self, message_id: int) -> FakeMessage | None: ...

    def longest_round_trip(self) -> float: ...

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        *,
        timeout: float = 10.0,
        what: str = "a condition",
        details: Callable[[], str] | None = None,
    ) -> Any: ...


@dataclass
class FakeInteraction:
    """One interaction the stand-in dispatched, and everything the bot did with it."""

    fake: InteractionWorld = field(repr=False)
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
    # Discord makes every answer ephemeral where the app may not post for everyone: a
    # server without the bot that denies Use External Apps, or the person cannot send.
    forced_ephemeral: bool = False
    created_followups: int = 0  # follow-up messages created (not a deferred reply filled)
    activity_instance_id: str | None = None  # what a LAUNCH_ACTIVITY answer opened

    @property
    def owners(self) -> dict[str, str]:
        """authorizing_integration_owners as sent: "0" the guild install, "1" the user's."""
        owners: dict[str, str] = self.payload.get("authorizing_integration_owners") or {}
        return owners

    @property
    def context(self) -> int:
        """0 a server, 1 the bot's DM, 2 a private channel (group DM, DM between people)."""
        return int(self.payload.get("context", 0))

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
        """Until the bot has made no call for this interaction for ``quiet`` seconds, and
        for the network's longest round trip besides: the bot's next call may be waiting
        for the answer to its last one."""
        quiet += self.fake.longest_round_trip()
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
