"""A slash command typed as text (`/pickomino start turn_timer:0 extrawurm:true`), read
against the schema the bot registered, as Discord's client reads the command box.

Refusals are `TypedCommandError`: an i18n key (`play.typed.*`) and its parameters, put
in words in the language of the person who typed it when shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.i18n import t

SUB_COMMAND, GROUP, STRING, INTEGER, BOOLEAN, USER, NUMBER = 1, 2, 3, 4, 5, 6, 10
MAX_TYPED = 4000  # characters, as Discord's message box
_OPTION_START = re.compile(r"(?:^|\s)([\w-]{1,32}):")
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


class TypedCommandError(ValueError):
    """Why a typed command cannot be sent: `str()` says it in the language in force."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return t(f"play.typed.{self.key}", **self.params)


@dataclass(frozen=True)
class TypedCommand:
    path: tuple[str, ...]  # ("pickomino", "start")
    options: dict[str, Any]  # leaf options, values of their types


def parse(text: str, commands: list[dict[str, Any]]) -> TypedCommand:
    """The command `text` names, with its options checked and converted."""
    if len(text) > MAX_TYPED:
        raise TypedCommandError("too_long", length=len(text), limit=MAX_TYPED)
    text = text.strip()
    if not text.startswith("/"):
        raise TypedCommandError("slash")
    first_option = _OPTION_START.search(text)
    head = text[1 : first_option.start() if first_option else len(text)].split()
    if not head:
        raise TypedCommandError("empty")
    by_name = {c["name"]: c for c in commands if c.get("type", 1) == 1}
    command = by_name.get(head[0].lower())
    if command is None:
        known = ", ".join(f"/{name}" for name in sorted(by_name))
        raise TypedCommandError("unknown", name=head[0], known=known)
    path = [command["name"]]
    schema: list[dict[str, Any]] = command.get("options") or []
    for word in head[1:]:
        subs = {o["name"]: o for o in schema if o["type"] in (SUB_COMMAND, GROUP)}
        sub = subs.get(word.lower())
        if sub is None:
            if subs:
                raise TypedCommandError(
                    "no_sub",
                    command="/" + " ".join(path),
                    word=word,
                    choices=", ".join(sorted(subs)),
                )
            raise TypedCommandError("option_form", example=_example(schema))
        path.append(sub["name"])
        schema = sub.get("options") or []
    needed = sorted(o["name"] for o in schema if o["type"] in (SUB_COMMAND, GROUP))
    if needed:
        raise TypedCommandError(
            "needs_sub", command="/" + " ".join(path), choices=", ".join(needed)
        )
    options = _options(text[first_option.start() :] if first_option else "", schema, path)
    return TypedCommand(tuple(path), options)


def _example(schema: list[dict[str, Any]]) -> str:
    return f"{schema[0]['name']}:…" if schema else "name:value"


def _options(text: str, schema: list[dict[str, Any]], path: list[str]) -> dict[str, Any]:
    starts = list(_OPTION_START.finditer(text))
    by_name = {o["name"]: o for o in schema}
    where = "/" + " ".join(path)
    options: dict[str, Any] = {}
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        name, raw = match.group(1).lower(), text[match.end() : end].strip()
        option = by_name.get(name)
        if option is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise TypedCommandError("no_option", command=where, name=name, known=known)
        if name in options:
            raise TypedCommandError("twice", name=name)
        options[name] = _value(option, raw, where)
    missing = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
    if missing:
        raise TypedCommandError(
            "required", command=where, options=", ".join(f"{m}:" for m in missing)
        )
    return options


def _value(option: dict[str, Any], raw: str, where: str) -> Any:
    name, kind = option["name"], option["type"]
    if not raw:
        raise TypedCommandError("no_value", name=name)
    choices = option.get("choices")
    if choices:
        for choice in choices:
            if raw.lower() in (str(choice["name"]).lower(), str(choice["value"]).lower()):
                return choice["value"]
        shown = ", ".join(str(c["name"]) for c in choices)
        raise TypedCommandError("choices", name=name, choices=shown)
    if kind == BOOLEAN:
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise TypedCommandError("boolean", name=name)
    if kind in (INTEGER, NUMBER):
        try:
            value: float = int(raw) if kind == INTEGER else float(raw)
        except ValueError:
            raise TypedCommandError("number", name=name) from None
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise TypedCommandError("range", name=name, low=low, high=high)
        return value
    if kind == USER:
        return raw.removeprefix("@")
    if kind == STRING:
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        if not low <= len(raw) <= high:
            raise TypedCommandError("length", name=name, low=low, high=high)
        return raw
    raise TypedCommandError("unsupported", command=where, name=name)
