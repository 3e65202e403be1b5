"""/<game> learn for any game whose plugin has a tutorial: a practice game for the one
person who asked, against the tutorial's computer players, started at once in the
channel (no lobby) and recorded as practice (bot.history keeps it out of every ranking).
Its end offers Start a real game (bot.ui.clicks)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.plugin import GamePlugin
from bot.sessions import lobby
from bot.sessions.model import Session
from bot.sessions.tools import ChangeTools
from bot.ui.clicks import language_of, open_here, seat_for
from bot.ui.live import LiveMessages
from bot.ui.options import DEFAULT_TIMER_SECONDS
from bot.ui.places import guild_id_of, place_of

Interaction = discord.Interaction[Any]


async def open_practice(live: LiveMessages, interaction: Interaction, game: GamePlugin) -> None:
    """Start `game`'s practice game in the channel for the caller, shown as the answer;
    a channel with a game already gets a link to it instead."""
    tutorial = game.tutorial
    assert tutorial is not None  # the command exists only for games with one
    if interaction.channel_id is None:
        raise app_commands.NoPrivateMessage()
    learner = seat_for(interaction)
    session = Session(
        kind=game.kind,
        guild_id=guild_id_of(interaction),
        channel_id=interaction.channel_id,
        host_id=learner.user_id,
        seats=[learner],
        options=dict(tutorial.options),
        # The usual timer: a lesson left alone ends by itself (three expiries), and the
        # channel is free again.
        timer_seconds=DEFAULT_TIMER_SECONDS,
        language=language_of(interaction),
        practice=True,
        place=place_of(interaction),
    )
    for _ in range(tutorial.computer_players):
        session.seats.append(lobby.bot_seat(session, game.adapter, tutorial.level))

    def begin(draft: Session, tools: ChangeTools) -> list[Any]:
        return lobby.begin_practice(draft, tools, tutorial.new_game)

    # Begun before it is shown, never as a lobby; one that could not be shown (answered
    # after Discord's 3 s) is abandoned at once, so the learner's next /learn starts.
    await open_here(
        live, interaction, session, post=lambda new: live.reply_new(interaction, new), begin=begin
    )
