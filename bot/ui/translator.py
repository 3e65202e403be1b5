"""Slash commands in every language, and each interaction's language in force.

Command metadata is written with `command_text(key)`: English is the name or
description Discord shows by default, and `CatalogTranslator` gives discord.py the
other languages' texts from the catalogs when it builds the synced payload. Every
interaction sets the language in force to the user's client language: `LocaleTree`
for commands (and their error handlers), `use_interaction_locale` in component callbacks.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, supported, t, translation, use_locale


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


class LocaleTree(app_commands.CommandTree[Any]):
    """The command tree: every command, autocomplete and command error handler runs in
    the language of the user who used the command."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        # The one hook discord.py awaits in the command's own task before anything else;
        # a context variable set here holds for that task alone.
        use_interaction_locale(interaction)
        return True
