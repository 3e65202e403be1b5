"""Which languages the bot speaks, which one is in force, and Babel's view of each.

The language in force is a context variable: each interaction sets it to the clicking
user's client language (bot.ui.translator), and the live message is drawn inside
`with_locale(session.language)`, so `t()` needs no locale argument. asyncio copies
context variables into each task, so one interaction's language never leaks into
another's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache

from babel import Locale

DEFAULT_LOCALE = "en"
# Our language codes, also the catalog folders' names (bot/i18n/<code>/).
LOCALES = ("en", "de", "fr", "it", "nl", "es", "pl", "pt-BR")
# Each language's own name, as the /<game> start `language` choice shows it.
ENDONYMS = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "it": "Italiano",
    "nl": "Nederlands",
    "es": "Español",
    "pl": "Polski",
    "pt-BR": "Português (Brasil)",
}
# Discord's locale codes that are not ours verbatim; any code not here and not ours is English.
_DISCORD_CODES = {"en-US": "en", "en-GB": "en", "es-ES": "es", "es-419": "es"}
# Ours -> the Discord locale a client of that language most often reports (the first above).
_PRIMARY_DISCORD_CODES = {ours: theirs for theirs, ours in reversed(_DISCORD_CODES.items())}

current_locale: ContextVar[str] = ContextVar("current_locale", default=DEFAULT_LOCALE)


def supported(code: str | None) -> str:
    """Our code for a language code (ours or Discord's); English for anything else."""
    if not code:
        return DEFAULT_LOCALE
    if code in LOCALES:
        return code
    return _DISCORD_CODES.get(code, DEFAULT_LOCALE)


def discord_code(locale: str) -> str:
    """Discord's locale code for one of ours ("en" -> "en-US"); most are the same."""
    return _PRIMARY_DISCORD_CODES.get(locale, locale)


def use_locale(code: str | None) -> str:
    """Make `code` the language in force for the rest of the current task."""
    locale = supported(code)
    current_locale.set(locale)
    return locale


@contextmanager
def with_locale(code: str | None) -> Iterator[str]:
    """The language in force inside the block; the previous one again after it."""
    token = current_locale.set(supported(code))
    try:
        yield current_locale.get()
    finally:
        current_locale.reset(token)


@cache
def babel_locale(locale: str) -> Locale:
    return Locale.parse(locale, sep="-")


@lru_cache(maxsize=8192)
def plural_category(locale: str, count: float) -> str:
    """CLDR's plural category of `count` in `locale`: one, few, many or other (and more).
    Remembered: Babel evaluates the language's rules each time, and messages count the
    same few numbers over and over."""
    return str(babel_locale(locale).plural_form(abs(count)))


def plural_categories(locale: str) -> frozenset[str]:
    """Every category a counted key needs in `locale` (`other` always among them)."""
    return frozenset(babel_locale(locale).plural_form.tags) | {"other"}
