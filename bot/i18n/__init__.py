"""One translation layer for every string a user sees.

Catalogs are JSON files of flat keys, `<root>/<locale>/<area>.json`, one file per area,
so areas can grow without touching each other. The platform's root is this folder
(core.json, score.json, ...); each game brings its own (`bot/games/<game>/i18n/`,
keys under the game's name), added by the game registry with `add_catalogs`. Strings
use str.format placeholders: t("pickomino.log.took", name="Anne", tile=27).

The language is the one in force (bot.i18n.locales.current_locale) unless given. A
counted string has one key per CLDR plural category of the language, `<key>_one`,
`<key>_few`, `<key>_many`, `<key>_other`; `t(key, count=n)` picks the form with Babel.
A key a language lacks falls back to English, never to the raw key.
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import cache
from pathlib import Path

from babel.numbers import format_decimal, format_percent

from bot.i18n.locales import (
    DEFAULT_LOCALE,
    ENDONYMS,
    LOCALES,
    babel_locale,
    current_locale,
    plural_categories,
    plural_category,
    supported,
    use_locale,
    with_locale,
)

__all__ = [
    "DEFAULT_LOCALE",
    "ENDONYMS",
    "LOCALES",
    "add_catalogs",
    "area_catalog",
    "areas",
    "catalog",
    "catalog_roots",
    "current_locale",
    "number",
    "percent",
    "plural_categories",
    "supported",
    "t",
    "translation",
    "use_locale",
    "with_locale",
]

CATALOG_DIR = Path(__file__).parent  # the platform's own catalogs
_roots: list[Path] = [CATALOG_DIR]


def add_catalogs(*roots: Path) -> None:
    """Read catalogs from these folders too (each holds `<locale>/<area>.json`): the game
    registry adds every registered game's. Adding a folder twice adds it once."""
    added = [root for root in roots if root not in _roots]
    if not added:
        return
    _roots.extend(added)
    area_catalog.cache_clear()
    catalog.cache_clear()


def catalog_roots() -> tuple[Path, ...]:
    """The folders catalogs are read from: the platform's first, then each game's."""
    return tuple(_roots)


def areas(root: Path = CATALOG_DIR) -> list[str]:
    """The areas a catalog folder defines: its English files."""
    return sorted(path.stem for path in (root / DEFAULT_LOCALE).glob("*.json"))


@cache
def area_catalog(locale: str, area: str, root: Path = CATALOG_DIR) -> dict[str, str]:
    """One area file of a locale (empty when the language has no such file yet)."""
    path = root / locale / f"{area}.json"
    if not path.exists():
        return {}
    entries: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return entries


@cache
def catalog(locale: str = DEFAULT_LOCALE) -> dict[str, str]:
    """Every key of a locale, merged from the area files of every root (read once)."""
    merged: dict[str, str] = {}
    for root in _roots:
        for path in sorted((root / locale).glob("*.json")):
            entries = area_catalog(locale, path.stem, root)
            duplicated = merged.keys() & entries.keys()
            if duplicated:
                raise ValueError(f"{path} repeats keys {sorted(duplicated)}")
            merged.update(entries)
    return merged


def t(key: str, locale: str | None = None, /, **params: object) -> str:
    """The text for `key` in `locale` (by default the one in force), with params filled in.

    With a numeric `count` param, the CLDR plural form of the language is chosen. A key
    the language lacks falls back to English; a key English lacks raises KeyError: a
    missing string is a bug, and the catalog tests find it before a player does.
    """
    language = supported(locale) if locale else current_locale.get()
    text = translation(key, language, **params)
    if text is None and language != DEFAULT_LOCALE:
        text = translation(key, DEFAULT_LOCALE, **params)
    if text is None:
        raise KeyError(key)
    return text


def translation(key: str, locale: str, /, **params: object) -> str | None:
    """The text for `key` in exactly `locale`, or None when that language lacks it
    (the command translator leaves such strings to Discord's English default)."""
    texts = catalog(locale)
    if not params:
        return texts.get(key)
    count = params.get("count")
    template = None
    if isinstance(count, int | float) and not isinstance(count, bool):
        template = texts.get(f"{key}_{plural_category(locale, count)}")
        if template is None:
            template = texts.get(f"{key}_other")
    if template is None:
        template = texts.get(key)
    return None if template is None else template.format(**params)


def number(value: float, locale: str | None = None, *, pattern: str | None = None) -> str:
    """A number as the language writes it: 12,345.5 in English, 12.345,5 in German
    (`pattern` a CLDR number pattern, such as "#,##0.0" for one decimal)."""
    language = supported(locale) if locale else current_locale.get()
    return format_decimal(value, format=pattern, locale=babel_locale(language))


def percent(value: float, locale: str | None = None, *, digits: int = 1) -> str:
    """A share (0.457) as a percentage with at most `digits` decimals: 45.7% in English,
    45,7 % in German and French."""
    language = supported(locale) if locale else current_locale.get()
    rounded = Decimal(str(round(value * 100, digits))) / 100
    return format_percent(rounded, locale=babel_locale(language), decimal_quantization=False)
