"""History's record of an ended game, written in the final commit's transaction."""

from __future__ import annotations

from bot.sessions.adapter import GameEvent
from bot.sessions.model import Ending, Session
from bot.stats.record import SeatInfo, build_result
from bot.storage.protocols import Connection
from bot.storage.results import save_result


async def record_result(connection: Connection, session: Session, events: list[GameEvent]) -> None:
    """Build the game's result from its events and save it (docs/ARCHITECTURE.md)."""
    assert session.id is not None and session.started_at is not None
    result = build_result(
        game_id=session.id,
        guild_id=session.guild_id,
        channel_id=session.channel_id,
        started_at=session.started_at,
        ended_at=session.ended_at or session.started_at,
        rules=dict(session.options),
        players=[SeatInfo(seat.user_id, seat.name, seat.is_bot) for seat in session.seats],
        events=events,
        abandoned=session.ending is Ending.ABANDONED,
    )
    await save_result(connection, result)
