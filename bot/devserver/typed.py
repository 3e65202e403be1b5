"""A slash command typed as text (`/pickomino start turn_timer:0 extrawurm:true`), read
against the schema the bot registered, as Discord's client reads the command box.

Commands, options and choices go by the names Discord's client shows in the typist's
language (`name_localizations`: `/pickomino starten` in German) or by their own; the
command sent names them by their own, as Discord's interaction does.

Refusals are `TypedCommandError`: an i18n key (`play.typed.*`) and its parameters, put
in words in the language of the person who typed it when shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.devserver.language import shown_name
from bot.i18n import t
from bot.i18n.locales import DEFAULT_LOCALE

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


def parse(text: str, commands: list[dict[str, Any]], locale: str = DEFAULT_LOCALE) -> TypedCommand:
    """The command `text` names, with its options checked and converted; names as a user
    of `locale` sees them are understood, and refusals name things that way."""
    if len(text) > MAX_TYPED:
        raise TypedCommandError("too_long", length=len(text), limit=MAX_TYPED)
    text = text.strip()
    if not text.startswith("/"):
        raise TypedCommandError("slash")
    first_option = _OPTION_START.search(text)
    head = text[1 : first_option.start() if first_option else len(text)].split()
    if not head:
        raise TypedCommandError("empty")
    top = [c for c in commands if c.get("type", 1) == 1]
    command = _named(top, head[0], locale)
    if command is None:
        known = ", ".join(sorted(f"/{shown_name(c, locale)}" for c in top))
        raise TypedCommandError("unknown", name=head[0], known=known)
    path = [command["name"]]
    shown = [shown_name(command, locale)]
    schema: list[dict[str, Any]] = command.get("options") or []
    for word in head[1:]:
        subs = [o for o in schema if o["type"] in (SUB_COMMAND, GROUP)]
        sub = _named(subs, word, locale)
        if sub is None:
            if subs:
                raise TypedCommandError(
                    "no_sub",
                    command="/" + " ".join(shown),
                    word=word,
                    choices=_names(subs, locale),
                )
            raise TypedCommandError("option_form", example=_example(schema, locale))
        path.append(sub["name"])
        shown.append(shown_name(sub, locale))
        schema = sub.get("options") or []
    needed = [o for o in schema if o["type"] in (SUB_COMMAND, GROUP)]
    if needed:
        raise TypedCommandError(
            "needs_sub", command="/" + " ".join(shown), choices=_names(needed, locale)
        )
    rest = text[first_option.start() :] if first_option else ""
    options = _options(rest, schema, "/" + " ".join(shown), locale)
    return TypedCommand(tuple(path), options)


def _named(items: list[dict[str, Any]], word: str, locale: str) -> dict[str, Any] | None:
    """The item called `word` as shown in `locale`, or by its own name."""
    folded = word.casefold()
    for item in items:
        if folded in (shown_name(item, locale).casefold(), str(item["name"]).casefold()):
            return item
    return None


def _names(items: list[dict[str, Any]], locale: str, *, in_order: bool = False) -> str:
    names = [shown_name(item, locale) for item in items]
    return ", ".join(names if in_order else sorted(names))


def _example(schema: list[dict[str, Any]], locale: str) -> str:
    return f"{shown_name(schema[0], locale)}:…" if schema else "name:value"


def _options(text: str, schema: list[dict[str, Any]], where: str, locale: str) -> dict[str, Any]:
    starts = list(_OPTION_START.finditer(text))
    options: dict[str, Any] = {}
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        typed, raw = match.group(1), text[match.end() : end].strip()
        option = _named(schema, typed, locale)
        if option is None:
            known = _names(schema, locale) or "none"
            raise TypedCommandError("no_option", command=where, name=typed, known=known)
        name = shown_name(option, locale)
        if option["name"] in options:
            raise TypedCommandError("twice", name=name)
        options[option["name"]] = _value(option, raw, name, where, locale)
    missing = [o for o in schema if o.get("required") and o["name"] not in options]
    if missing:
        listed = ", ".join(f"{shown_name(o, locale)}:" for o in missing)
        raise TypedCommandError("required", command=where, options=listed)
    return options


def _value(option: dict[str, Any], raw: str, name: str, where: str, locale: str) -> Any:
    kind = option["type"]
    if not raw:
        raise TypedCommandError("no_value", name=name)
    choices = option.get("choices")
    if choices:
        chosen = _named(choices, raw, locale)
        if chosen is not None:
            return chosen["value"]
        for choice in choices:
            if raw.casefold() == str(choice["value"]).casefold():
                return choice["value"]
        listed = _names(choices, locale, in_order=True)
        raise TypedCommandError("choices", name=name, choices=listed)
    if kind == BOOLEAN:
        word = raw.casefold()
        if word in _TRUE or word == t("play.page.true", locale).casefold():
            return True
        if word in _FALSE or word == t("play.page.false", locale).casefold():
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
