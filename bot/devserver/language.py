"""A tab's language: ours (bot/i18n's eight) for the page's words, Discord's code for it
in interactions, and the registered commands as Discord's client shows them in it.

Discord's client shows a command, option or choice by its `name_localizations` entry for
the user's locale when there is one, else by its name; the interaction it sends names
them by `name` whatever was shown.
"""

from __future__ import annotations

from typing import Any

from bot.i18n.locales import DEFAULT_LOCALE, LOCALES, discord_code


def page_locale(header: str) -> str:
    """Our language for a browser's (`?lang=`, `navigator.language`, or an
    Accept-Language header: the first of its languages we have, by the region-less code
    too; Portuguese is Brazil's); English else."""
    by_lower = {code.lower(): code for code in LOCALES}
    for part in header.split(","):
        code = part.split(";")[0].strip().lower().replace("_", "-")
        for candidate in (code, code.split("-")[0]):
            if candidate in by_lower:
                return by_lower[candidate]
            if candidate == "pt":
                return "pt-BR"
    return DEFAULT_LOCALE


def discord_locale(locale: str) -> str:
    """Discord's locale code for one of ours, as its client sends it."""
    return discord_code(locale)


def shown_name(item: dict[str, Any], locale: str) -> str:
    """A command's, option's or choice's name as Discord's client shows it in `locale`."""
    localized = (item.get("name_localizations") or {}).get(discord_locale(locale))
    return str(localized or item["name"])


def command_path(name: str, commands: list[dict[str, Any]], locale: str) -> str:
    """A used command's path ("pickomino start") as a user of `locale` sees it."""
    words = name.split()
    level = [c for c in commands if c.get("type", 1) == 1]
    shown: list[str] = []
    for word in words:
        found = next((c for c in level if c.get("name") == word), None)
        if found is None:
            shown.append(word)
            level = []
            continue
        shown.append(shown_name(found, locale))
        level = [o for o in found.get("options") or [] if o.get("type") in (1, 2)]
    return " ".join(shown)
