"""The slash commands as the bot syncs them: every name, description and choice in every
language within Discord's limits, the start commands translated in full, and a changed
translation synced."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest

from bot.games.registry import GAMES
from bot.i18n import catalog
from tests.discord_harness import BotHarness

# Discord's locales that are one of our languages other than English.
TRANSLATED_LOCALES = {"de", "fr", "it", "nl", "es-ES", "es-419", "pl", "pt-BR"}
MAX_NAME, MAX_DESCRIPTION, MAX_CHOICE = 32, 100, 100
SUBCOMMAND, GROUP = 1, 2


def valid_name(name: str) -> bool:
    """Discord's ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lowercase."""
    allowed = all(
        char in "-_"
        or unicodedata.category(char)[0] in "LN"
        or "\u0900" <= char <= "\u097f"  # Devanagari
        or "\u0e00" <= char <= "\u0e7f"  # Thai
        for char in name
    )
    return allowed and 1 <= len(name) <= MAX_NAME and name == name.lower()


Text = tuple[str, str, str, dict[str, str]]  # where, what, English, translations


def texts(command: dict[str, Any], where: str = "") -> Iterator[Text]:
    """Every name, description and choice name of a command payload, nested ones too."""
    where = f"{where} {command['name']}".strip()
    yield where, "name", command["name"], command.get("name_localizations") or {}
    yield (
        where,
        "description",
        command["description"],
        command.get("description_localizations") or {},
    )
    for choice in command.get("choices") or []:
        yield where, "choice", choice["name"], choice.get("name_localizations") or {}
    for option in command.get("options") or []:
        yield from texts(option, where)


@pytest.fixture
async def synced(tmp_path) -> Any:
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        yield harness


async def test_every_command_text_meets_discords_limits_in_every_language(synced):
    commands = synced.fake.commands["global"]
    assert {command["name"] for command in commands} == {game.command for game in GAMES}
    wrong = []
    for command in commands:
        for where, what, english, translations in texts(command):
            for locale, text in {"en-US": english, **translations}.items():
                if what == "name" and not valid_name(text):
                    wrong.append((where, locale, text))
                elif what != "name" and not 1 <= len(text) <= MAX_DESCRIPTION:
                    wrong.append((where, locale, len(text)))
    assert wrong == []


def _option_names_unique(command: dict[str, Any], locale: str) -> bool:
    options = command.get("options") or []
    names = [(o.get("name_localizations") or {}).get(locale, o["name"]) for o in options]
    return len(names) == len(set(names)) and all(
        _option_names_unique(option, locale) for option in options
    )


async def test_the_game_commands_are_translated_in_full(synced):
    """Everything of every registered game's command, its score group included, but the
    group names (the games' names) and the language choices (each language in its own
    name)."""
    untranslated = []
    for command in synced.fake.commands["global"]:
        for locale in TRANSLATED_LOCALES:
            assert _option_names_unique(command, locale), (command["name"], locale)
        described = (command.get("description_localizations") or {}).keys()
        if TRANSLATED_LOCALES - described:
            untranslated.append((command["name"], "description", sorted(described)))
        for option in command["options"]:
            for where, what, english, translations in texts(option, command["name"]):
                if where.endswith(" language") and what == "choice":
                    continue
                missing = TRANSLATED_LOCALES - translations.keys()
                if missing:
                    untranslated.append((where, what, english, sorted(missing)))
    assert untranslated == []


async def test_german_and_polish_names_are_the_catalogs(synced):
    pickomino = next(c for c in synced.fake.commands["global"] if c["name"] == "pickomino")
    start = next(o for o in pickomino["options"] if o["name"] == "start")
    assert start["name_localizations"]["de"] == "starten"
    assert start["name_localizations"]["pl"] == "rozpocznij"
    assert "en-US" not in start["name_localizations"]  # English is the default
    timer = next(o for o in start["options"] if o["name"] == "turn_timer")
    five = next(c for c in timer["choices"] if c["value"] == 300)
    assert five["name"] == "5 min" and five["name_localizations"]["de"] == "5 Min."


async def test_a_changed_translation_is_a_difference_and_is_synced(synced, monkeypatch):
    bot, fake = synced.bot, synced.fake
    fake.requests.clear()
    assert not await bot.sync_commands()  # unchanged since setup: read, not written
    assert [request.method for request in fake.requests] == ["GET"]
    monkeypatch.setitem(catalog("de"), "command.status", "Die Partie unten zeigen")
    assert await bot.sync_commands()
    assert [request.method for request in fake.requests] == ["GET", "GET", "PUT"]
    synced_status = next(
        o
        for c in fake.commands["global"]
        if c["name"] == "picker"
        for o in c["options"]
        if o["name"] == "status"
    )
    assert synced_status["description_localizations"]["de"] == "Die Partie unten zeigen"


async def test_the_entry_point_is_named_and_described_in_every_language(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db", table=True) as harness:
        (entry,) = [c for c in harness.fake.commands["global"] if c["type"] == 4]
    assert entry["name_localizations"].keys() >= TRANSLATED_LOCALES
    assert entry["description_localizations"].keys() >= TRANSLATED_LOCALES
    wrong = [
        (where, what, text)
        for where, what, english, translations in texts(entry)
        for text in [english, *translations.values()]
        if (what == "name" and not valid_name(text))
        or (what == "description" and not 1 <= len(text) <= MAX_DESCRIPTION)
    ]
    assert wrong == []
