"""The one error funnel: every refusal and every failure of a command, a component or a
score page reaches the person who asked as an ephemeral answer, never a traceback."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.i18n import t
from bot.sessions.errors import DatabaseDown, SessionError
from bot.storage.protocols import DatabaseUnavailable
from bot.ui.callback import UNKNOWN_INTERACTION

log = logging.getLogger(__name__)


async def tell(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """Answer only the clicker, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def acknowledge(interaction: discord.Interaction[Any]) -> None:
    """Answer with nothing to read: a deferred update (type 6), the message unchanged."""
    if not interaction.response.is_done():
        await interaction.response.defer()


async def refuse(interaction: discord.Interaction[Any], error: SessionError) -> None:
    """Tell the clicker why nothing was done. An interaction Discord no longer knows
    (404: past its 3 s, 10062, or its webhook gone) cannot be told: its person saw
    "This interaction failed" and nothing was played, so that is an INFO line, not a
    traceback (a busy process met it by the hundred in bench_soak)."""
    try:
        await tell(interaction, t(error.key, **error.params))
    except discord.NotFound as gone:
        log.info(
            "interaction %s: refused (%s), but Discord no longer knows it (%s)",
            interaction.id,
            error.key,
            gone.code,
        )


async def fail(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Something unexpected: log it and tell the user politely."""
    log.error("interaction %s failed", interaction.id, exc_info=error)
    try:
        await tell(interaction, t("error.generic"))
    except discord.HTTPException:
        log.warning("could not tell the user about the failure of %s", interaction.id)


async def answer_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """A refusal politely, anything else as a logged failure (commands, components and
    pages alike; app_commands wraps what a command raised in CommandInvokeError)."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, DatabaseUnavailable):
        # Expected while the database restarts: one INFO line (the outage's own warnings
        # say it once, not once a click), and the clicker told to retry.
        log.info("interaction %s: database %s (%s)", interaction.id, original.state, original)
        await refuse(interaction, DatabaseDown())
    elif isinstance(original, SessionError):
        await refuse(interaction, original)
    elif isinstance(original, app_commands.NoPrivateMessage):
        await tell(interaction, t("error.guild_only"))
    elif isinstance(original, discord.NotFound) and original.code == UNKNOWN_INTERACTION:
        # Answered after Discord's 3 s (a process too busy, or just restarted): nothing
        # can reach its person any more, and nothing is wrong with the bot.
        log.info("interaction %s answered too late: Discord no longer knows it", interaction.id)
    else:
        await fail(interaction, original)
