"""The cog's side of the computer players: a bot's seat, and the hint for the player to move."""

from __future__ import annotations

import asyncio
import itertools

from bot.games.pickomino.ai import Level, bot_name, format_hint, hint_for
from bot.games.pickomino.engine import Game
from bot.sessions.adapter import GameAdapter
from bot.sessions.errors import HintsOff
from bot.sessions.lobby import next_bot_id
from bot.sessions.model import Seat, Session
from bot.sessions.play import player_to_move


def bot_seat(session: Session, level: Level) -> Seat:
    """A new computer player of `level`, named unlike anyone at the table."""
    taken = {seat.name for seat in session.seats}
    names = (bot_name(level, index) for index in itertools.count())
    name = next(name for name in names if name not in taken)
    return Seat(next_bot_id(session), name, is_bot=True, bot_level=level.value)


async def hint_text(session: Session, adapter: GameAdapter, user_id: int) -> str:
    """The hint for `user_id`, who must be the player to move; computed off the event loop.

    Read-only: the session and its version are left as they are.
    """
    if not session.hints:
        raise HintsOff()
    player_to_move(session, adapter, user_id)
    game: Game = session.game
    hint = await asyncio.to_thread(hint_for, game.copy())
    names = {seat.player_id: seat.name for seat in session.seats}
    return format_hint(hint, names=names)
