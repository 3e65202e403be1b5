"""The number forms of every language: for each of the eight, each plural category CLDR
gives it (read from Babel here, not through the bot's helper), a few numbers of that
category, and every counted key of every catalog (the platform's and each game's)
rendered with them. The text must have no placeholder left and must be the form the
catalog writes for that category. Then a few sentences whose case a number governs:
German "mit 41 Punkten", Polish "z wynikiem 22 punktów" but "zdobywając 22 punkty"."""

from __future__ import annotations

import re
import string
from functools import cache

import pytest
from babel import Locale

from bot.games.registry import GAMES
from bot.i18n import CATALOG_DIR, DEFAULT_LOCALE, LOCALES, area_catalog, areas, catalog, t

# The platform's catalogs and each registered game's (importing the registry adds them).
ROOTS = (CATALOG_DIR, *(game.catalogs for game in GAMES))

# Numbers to try: first those where languages part ways (Polish 2 and 22 "few", 12 and
# 25 "many"; French 0 singular), then the integers a game counts, a million (CLDR's
# "many" in the Romance languages) and fractions (Polish "other" holds only those).
CANDIDATES: tuple[float, ...] = (0, 1, 2, 5, 12, 21, 22, 41, 112, *range(130), 1_000_000)
CANDIDATES += (0.5, 1.5, 2.5)
SAMPLES_PER_CATEGORY = 4
RAW_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def babel_locale(locale: str) -> Locale:
    return Locale.parse(locale.replace("-", "_"))


def category_of(locale: str, number: float) -> str:
    return str(babel_locale(locale).plural_form(number))


@cache
def samples(locale: str) -> dict[str, tuple[float, ...]]:
    """A few numbers of each of `locale`'s plural categories, smallest first."""
    rule = babel_locale(locale).plural_form
    found: dict[str, list[float]] = {category: [] for category in {*rule.tags, "other"}}
    for number in CANDIDATES:
        chosen = found[category_of(locale, number)]
        if len(chosen) < SAMPLES_PER_CATEGORY and number not in chosen:
            chosen.append(number)
    return {category: tuple(numbers) for category, numbers in found.items()}


def counted_keys() -> list[str]:
    """Every counted key of the platform's and the registered games' catalogs (not a
    test-only game's another test may have added): English writes its `_other` form."""
    keys = set()
    for root in ROOTS:
        for area in areas(root):
            english = area_catalog(DEFAULT_LOCALE, area, root)
            keys |= {key.removesuffix("_other") for key in english if key.endswith("_other")}
    return sorted(keys)


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def params_for(locale: str, key: str, count: float) -> dict[str, object]:
    """A value for every field any form of `key` fills, in English or in `locale`."""
    forms = [
        text
        for texts in (catalog(DEFAULT_LOCALE), catalog(locale))
        for name, text in texts.items()
        if name.rpartition("_")[0] == key
    ]
    names = set().union(*(fields(form) for form in forms)) - {"count"}
    return {name: f"<{name}>" for name in names} | {"count": count}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_category_of_the_language_has_sample_numbers(locale):
    found = samples(locale)
    assert set(found) == {*babel_locale(locale).plural_form.tags, "other"}
    assert all(found.values()), found


@pytest.mark.parametrize("locale", LOCALES)
def test_every_counted_key_takes_the_form_of_each_numbers_category(locale):
    texts = catalog(locale)
    wrong = []
    for key in counted_keys():
        for category, numbers in samples(locale).items():
            form = texts.get(f"{key}_{category}")
            if form is None:
                wrong.append(f"{key}: no {category} form")
                continue
            for number in numbers:
                params = params_for(locale, key, number)
                shown = t(key, locale, **params)
                if RAW_PLACEHOLDER.search(shown):
                    wrong.append(f"{key} with {number}: a placeholder is left in {shown!r}")
                elif shown != form.format(**params):
                    wrong.append(f"{key} with {number}: {shown!r} is not its {category} form")
    assert wrong == []


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, "mit 1\u00a0Punkt!"), (2, "mit 2\u00a0Punkten!"), (41, "mit 41\u00a0Punkten!")],
)
def test_german_winners_win_with_the_dative_plural(count, expected):
    pickomino = t("pickomino.final.winner.points", "de", name="Anne", count=count)
    assert pickomino.endswith(expected)
    picker = t("picker.final.winner", "de", name="Anne", count=count)
    assert picker.endswith(expected.replace("\u00a0", " "))
    shared = t("pickomino.final.winners.shared.points", "de", names="Anne, Bob", count=count)
    assert expected.rstrip("!") in shared


@pytest.mark.parametrize(
    ("count", "after_score", "won"),
    [
        (1, "punktu", "punkt"),
        (2, "punktów", "punkty"),
        (5, "punktów", "punktów"),
        (12, "punktów", "punktów"),
        (22, "punktów", "punkty"),
        (41, "punktów", "punktów"),
    ],
)
def test_polish_points_take_the_case_their_words_ask(count, after_score, won):
    # "z wynikiem N ..." asks for the genitive; "zdobywając N ..." for the accusative,
    # whose plural is "punkty" after 2-4 (not 12-14) and "punktów" after the rest.
    pickomino = t("pickomino.final.winner.points", "pl", name="Anne", count=count)
    assert pickomino.endswith(f"z wynikiem {count}\u00a0{after_score}!")
    picker = t("picker.final.winner", "pl", name="Anne", count=count)
    assert picker.endswith(f"zdobywając {count} {won}!")
    total = t("pickomino.player.score", "pl", worms=count - 1, bratwurms=1, count=count)
    assert total.endswith(f"{count}\u00a0{won}")  # "= 22 punkty": the nominative
