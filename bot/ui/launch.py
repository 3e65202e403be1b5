"""Launching the table (the games as a Discord Activity) from Discord: the App
Launcher's Entry Point and the Open the table button. Either is answered with
LAUNCH_ACTIVITY (callback type 12) within its 3 s: Discord opens the Activity in the
channel for the person, or has them join the one running there; nothing is committed
and no message changes. Where the table is off (no DISCORD_CLIENT_SECRET) the person is
told so, in their language, and only they see it.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.ui.replies import answer_error, tell
from bot.ui.translator import use_interaction_locale

Interaction = discord.Interaction[Any]


class TableLaunch:
    """Answers whatever opens the table; `on` when the table is served."""

    def __init__(self, on: bool = False) -> None:
        self.on = on

    async def launch(self, interaction: Interaction) -> None:
        """Open the table for the person, or tell them it is not set up here."""
        use_interaction_locale(interaction)
        if not self.on:
            await tell(interaction, t("table.launch.off"))
            return
        await interaction.response.launch_activity()

    async def entry_point(self, interaction: Interaction) -> None:
        """The Entry Point's use (LocaleTree hands it over before the command tree, which
        knows no such command); a failure is told politely, never a traceback."""
        try:
            await self.launch(interaction)
        except Exception as error:
            await answer_error(interaction, error)
