"""The preview tool's input: a JSON list (or JSON Lines) of messages to draw, each
{"name": ..., "payload": {...}} with optional "names" (user id -> name), "author"
({"name", "avatar_colour", "name_colour", "bot"}), "command" ({"user", "command"}) and
"now" (unix seconds, for <t:…:R> timestamps)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.i18n import t
from bot.preview.html import Author, CommandUse, message_html


class MessageFileError(ValueError):
    """A file the tool cannot read; the message is the `error:` line to print."""


@dataclass(frozen=True)
class NamedMessage:
    name: str
    payload: dict[str, Any]
    names: dict[str, str] = field(default_factory=dict)
    author: Author | None = None
    command: CommandUse | None = None
    now: float | None = None  # the clock relative timestamps count from

    def html(self) -> str:
        return message_html(
            self.payload, author=self.author, names=self.names, command=self.command, now=self.now
        )


def load_messages(path: Path) -> list[NamedMessage]:
    """The file's messages, in order; MessageFileError says what is wrong."""
    if not path.is_file():
        raise MessageFileError(t("preview.error.file_missing", path=path))
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        entries = _entries(text)
    except json.JSONDecodeError as error:
        raise MessageFileError(t("preview.error.json", path=path, reason=error)) from error
    if not isinstance(entries, list):
        raise MessageFileError(t("preview.error.not_list", path=path))
    if not entries:
        raise MessageFileError(t("preview.error.empty", path=path))
    return [_message(path, index, entry) for index, entry in enumerate(entries, start=1)]


def _entries(text: str) -> Any:
    """A JSON document, or one JSON object a line (JSON Lines)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2:
            raise
        return [json.loads(line) for line in lines]


def _message(path: Path, index: int, entry: Any) -> NamedMessage:
    def fail(reason: str) -> MessageFileError:
        return MessageFileError(t("preview.error.entry", path=path, index=index, reason=reason))

    if not isinstance(entry, dict):
        raise fail("not an object")
    name, payload = entry.get("name"), entry.get("payload")
    if not isinstance(name, str) or not name:
        raise fail('"name" must be a non-empty string')
    if not isinstance(payload, dict):
        raise fail('"payload" must be an object')
    names = entry.get("names") or {}
    if not isinstance(names, dict):
        raise fail('"names" must be an object of id -> name')
    now = entry.get("now")
    if now is not None and not isinstance(now, int | float):
        raise fail('"now" must be unix seconds')
    try:
        author = Author(**entry["author"]) if entry.get("author") else None
        command = CommandUse(**entry["command"]) if entry.get("command") else None
    except TypeError as error:
        raise fail(str(error)) from error
    clean_names = {str(key): str(value) for key, value in names.items()}
    return NamedMessage(name, payload, clean_names, author, command, now)
