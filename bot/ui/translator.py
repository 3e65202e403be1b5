"""Slash commands in every language, and each interaction's language in force.

Command metadata is written with `command_text(key)`: English is the name or
description Discord shows by default, and `CatalogTranslator` gives discord.py the
other languages' texts from the catalogs when it builds the synced payload. Every
interaction sets the language in force to the user's client language: `LocaleTree`
for commands (and their error handlers), `use_interaction_locale` in component callbacks.

`LocaleTree` also hands the Entry Point's use (the App Launcher's command, type 4) to
its own answer before the tree looks the command up: discord.py has no type for it and
would fail on it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, supported, t, translation, use_locale

log = logging.getLogger(__name__)

ENTRY_POINT = 4  # an application command's type: PRIMARY_ENTRY_POINT


def command_text(key: str, **params: Any) -> app_commands.locale_str:
    """A command's, option's or choice's name or description, translatable by its key."""
    return app_commands.locale_str(t(key, DEFAULT_LOCALE, **params), key=key, params=params)


class CatalogTranslator(app_commands.Translator):
    """Names and descriptions for each Discord locale, from the `command.*` keys; None
    (Discord shows English) where a language has no text of its own."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        language = supported(locale.value)
        if key is None or language == DEFAULT_LOCALE:
            return None
        return translation(key, language, **string.extras.get("params", {}))


def use_interaction_locale(interaction: discord.Interaction[Any]) -> str:
    """Make the user's client language the one in force for this interaction's task."""
    return use_locale(interaction.locale.value)


def is_entry_point(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction is the use of the application's Entry Point command."""
    data: Any = interaction.data or {}
    return (
        interaction.type is discord.InteractionType.application_command
        and data.get("type") == ENTRY_POINT
    )


class LocaleTree(app_commands.CommandTree[Any]):
    """The command tree: every command, autocomplete and command error handler runs in
    the language of the user who used the command. The Entry Point's use goes to
    `entry_point` (set at start-up), not to the tree."""

    entry_point: Callable[[discord.Interaction[Any]], Awaitable[None]] | None = None

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        # The one hook discord.py awaits in the command's own task before anything else;
        # a context variable set here holds for that task alone.
        use_interaction_locale(interaction)
        if not is_entry_point(interaction):
            return True
        # Answered here, and the tree told to go no further (False): it would look the
        # command up as a context menu of a type it cannot build, and fail.
        if self.entry_point is None:
            log.warning("Entry Point used before start-up wired its answer: %s", interaction.id)
            return False
        try:
            await self.entry_point(interaction)
        except Exception:
            log.exception("Ignoring exception in the Entry Point's answer")
        return False
