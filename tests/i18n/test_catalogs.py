"""Every language's catalogs against English: the same keys in the same area files, the
same placeholders, every plural category CLDR (Babel) lists for the language, and the
areas translated so far complete, for the platform's catalogs and every registered
game's (the list of games comes from the registry). A key a language lacks is shown in
English."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

import bot.i18n
from bot.games.registry import GAMES
from bot.i18n import (
    DEFAULT_LOCALE,
    LOCALES,
    area_catalog,
    areas,
    catalog,
    plural_categories,
    t,
)

CATALOG_DIR = Path(bot.i18n.__file__).parent
# Whose catalogs: the platform's, then each registered game's folder.
ROOTS: dict[str, Path] = {"platform": CATALOG_DIR} | {g.kind: g.catalogs for g in GAMES}
# An area is named `<owner>/<area>` (two games may each have a `score` area).
AREAS = [f"{owner}/{area}" for owner, root in ROOTS.items() for area in areas(root)]
OTHER_LOCALES = [locale for locale in LOCALES if locale != DEFAULT_LOCALE]
# Areas another branch is translating: every other area must be complete in every
# language, so a key added in English only fails here until each language has it.
PENDING: set[str] = set()
TRANSLATED = [area for area in AREAS if area not in PENDING]


def area_texts(locale: str, area: str) -> dict[str, str]:
    """The catalog of `<owner>/<area>` in `locale`."""
    owner, _, name = area.partition("/")
    return area_catalog(locale, name, ROOTS[owner])


PLURAL_SUFFIXES = ("zero", "one", "two", "few", "many", "other")


def placeholders(template: str) -> set[str]:
    """The fields a template fills, nested ones too (`{name:<{width}}` has two)."""
    found: set[str] = set()
    for _, name, spec, _ in string.Formatter().parse(template):
        if name:
            found.add(name)
        if spec:
            found |= placeholders(spec)
    return found


def counted_bases(english: dict[str, str]) -> set[str]:
    """Keys with plural forms: `<base>_other` is in English."""
    return {key.removesuffix("_other") for key in english if key.endswith("_other")}


def english_counterpart(key: str, english: dict[str, str]) -> str | None:
    """The English key a translated key answers to (a plural form answers to `_other`)."""
    if key in english:
        return key
    base, _, category = key.rpartition("_")
    if category in PLURAL_SUFFIXES and f"{base}_other" in english:
        return f"{base}_other"
    return None


def required_keys(locale: str, area: str) -> list[str]:
    """The keys `locale` must have in `area` for it to count as translated."""
    english = area_texts(DEFAULT_LOCALE, area)
    bases = counted_bases(english)
    needed: set[str] = set()
    for key in english:
        base = key.rpartition("_")[0]
        if base in bases:
            key = base
        if key in bases:
            needed |= {f"{key}_{category}" for category in plural_categories(locale)}
        else:
            needed.add(key)
    return sorted(needed)


LANGUAGE_AREAS = [(locale, area) for locale in OTHER_LOCALES for area in AREAS]


@pytest.mark.parametrize("owner", ROOTS)
def test_every_language_has_a_folder_and_english_has_every_area(owner):
    root = ROOTS[owner]
    folders = sorted(p.name for p in root.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == sorted(LOCALES)
    assert areas(root), f"{owner} has no English catalog"
    for locale in OTHER_LOCALES:  # no area that English lacks
        assert {p.stem for p in (root / locale).glob("*.json")} <= set(areas(root))
    assert set(AREAS) >= PENDING


@pytest.mark.parametrize(("locale", "area"), LANGUAGE_AREAS)
def test_every_key_is_an_english_key_with_the_same_placeholders(locale, area):
    english = area_texts(DEFAULT_LOCALE, area)
    wrong = []
    for key, text in area_texts(locale, area).items():
        counterpart = english_counterpart(key, english)
        if counterpart is None:
            wrong.append(f"{key}: not an English key of {area}.json")
        elif placeholders(text) != placeholders(english[counterpart]):
            expected = sorted(placeholders(english[counterpart]))
            wrong.append(f"{key}: {sorted(placeholders(text))} != {expected}")
        else:
            t(key, locale, **dict.fromkeys(placeholders(text), 1))  # formats without error
    assert wrong == []


@pytest.mark.parametrize(("locale", "area"), [(DEFAULT_LOCALE, a) for a in AREAS] + LANGUAGE_AREAS)
def test_counted_keys_have_every_plural_category_of_the_language(locale, area):
    texts = area_texts(locale, area)
    missing = [
        f"{base}_{category}"
        for base in counted_bases(area_texts(DEFAULT_LOCALE, area))
        if any(key.startswith(f"{base}_") for key in texts)
        for category in sorted(plural_categories(locale))
        if f"{base}_{category}" not in texts
    ]
    assert missing == []


@pytest.mark.parametrize(
    ("locale", "area"), [(locale, area) for locale in OTHER_LOCALES for area in TRANSLATED]
)
def test_translated_areas_are_complete(locale, area):
    texts = area_texts(locale, area)
    assert [key for key in required_keys(locale, area) if key not in texts] == []


def test_polish_points_take_the_cldr_form_babel_chooses():
    forms = [t("picker.points", "pl", count=n) for n in (1, 2, 5, 12, 22, 25)]
    assert forms == ["1 punkt", "2 punkty", "5 punktów", "12 punktów", "22 punkty", "25 punktów"]
    assert [t("picker.points", "de", count=n) for n in (1, 2)] == ["1 Punkt", "2 Punkte"]
    assert t("picker.points", "fr", count=0) == "0 point"  # French 0 is singular


@pytest.fixture
def catalogs(tmp_path, monkeypatch):
    """A catalog folder of our own: English has more keys than German."""
    english = {"greet": "Hello {name}", "bye": "Bye", "worms_one": "{count} worm",
               "worms_other": "{count} worms"}  # fmt: skip
    german = {"greet": "Hallo {name}", "worms_other": "{count} Würmer"}
    for locale, entries in (("en", english), ("de", german)):
        (tmp_path / locale).mkdir()
        (tmp_path / locale / "area.json").write_text(json.dumps(entries), encoding="utf-8")
    monkeypatch.setattr(bot.i18n, "_roots", [tmp_path])
    catalog.cache_clear()
    area_catalog.cache_clear()
    yield
    catalog.cache_clear()
    area_catalog.cache_clear()


def test_a_missing_key_shows_english_never_the_key(catalogs):
    assert t("greet", "de", name="Anne") == "Hallo Anne"
    assert t("bye", "de") == "Bye"
    # German lacks the singular form: its `_other`, not English.
    assert t("worms", "de", count=1) == "1 Würmer"
    assert t("worms", "pl", count=1) == "1 worm"  # no Polish folder at all: English
    with pytest.raises(KeyError):
        t("nowhere", "de")
