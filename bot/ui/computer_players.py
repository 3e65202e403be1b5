"""Hints for the player to move, and the level of a lone person's opponent, for any game."""

from __future__ import annotations

import asyncio

from bot.render.names import safe_name
from bot.sessions.adapter import AnyAdapter
from bot.sessions.errors import HintsOff
from bot.sessions.model import Session
from bot.sessions.play import player_to_move


async def hint_text(session: Session, adapter: AnyAdapter, user_id: int) -> str:
    """The hint for `user_id`, who must be the player to move; computed off the event loop.

    Read-only: the session and its version are left as they are.
    """
    if not session.hints:
        raise HintsOff()
    seat = player_to_move(session, adapter, user_id)
    names = {seat.player_id: safe_name(seat.name) for seat in session.seats}
    game = adapter.copy(session.game)
    computers = session.computer_levels()
    return await asyncio.to_thread(adapter.hint, game, seat.player_id, names, computers)


def solo_level(adapter: AnyAdapter) -> str:
    """The level of the computer player seated for one person alone (the bot's DM): the
    middle of the game's levels (Normal), a fair first opponent."""
    levels = list(adapter.bot_levels)
    return levels[len(levels) // 2]
