"""One translation layer for every string a user sees.

Catalogs are JSON files of flat keys under `bot/i18n/<locale>/`, one file per area
(core.json, score.json, ai.json, ...), so areas can grow without touching each other.
Strings use str.format placeholders: t("log.took", name="Anne", tile=27). A key with
plural forms is stored as `key_one` and `key_other`, picked by the `count` parameter.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

DEFAULT_LOCALE = "en"
_CATALOG_DIR = Path(__file__).parent


@cache
def catalog(locale: str = DEFAULT_LOCALE) -> dict[str, str]:
    """Every key of a locale, merged from its area files (read once)."""
    merged: dict[str, str] = {}
    folder = _CATALOG_DIR / locale
    for path in sorted(folder.glob("*.json")):
        entries = json.loads(path.read_text(encoding="utf-8"))
        duplicated = merged.keys() & entries.keys()
        if duplicated:
            raise ValueError(f"{path.name} repeats keys {sorted(duplicated)}")
        merged.update(entries)
    return merged


def t(key: str, locale: str | None = None, /, **params: object) -> str:
    """The text for `key` in `locale` (falling back to English), with params filled in.

    An unknown key raises KeyError: a missing string is a bug, and the catalog test
    finds it before a player does.
    """
    texts = catalog(locale) if locale and locale != DEFAULT_LOCALE else catalog()
    if key not in catalog() and "count" in params:
        # Plurals, simple English for now: `key_one` for a count of 1, else `key_other`.
        key = f"{key}_one" if params["count"] == 1 else f"{key}_other"
    template = texts.get(key)
    if template is None:
        template = catalog()[key]
    return template.format(**params) if params else template
