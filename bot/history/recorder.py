"""The game-over hook that records a game in history, for any game.

The session layer runs it inside the game's final commit (docs/ARCHITECTURE.md):
`recorder(figures, store)` is the hook of the game whose HistoryFigures is `figures`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.history.figures import HistoryFigures
from bot.history.record import EndedGame, SeatInfo
from bot.history.store import ResultStore
from bot.sessions.model import Ending, Session
from bot.storage.protocols import Connection

GameOverHook = Callable[[Connection, Session, list[dict[str, Any]]], Awaitable[None]]


def recorder(figures: HistoryFigures, store: ResultStore) -> GameOverHook:
    """The hook that builds a game's result from its events and saves it with `store`."""

    async def record_result(
        connection: Connection, session: Session, events: list[dict[str, Any]]
    ) -> None:
        assert session.id is not None and session.started_at is not None
        ended = EndedGame(
            game_id=session.id,
            guild_id=session.community_id,  # the chat, where there is no server
            channel_id=session.channel_id,
            started_at=session.started_at,
            ended_at=session.ended_at or session.started_at,
            options=dict(session.options),
            players=[SeatInfo(seat.user_id, seat.name, seat.is_bot) for seat in session.seats],
            abandoned=session.ending is Ending.ABANDONED,
            practice=session.practice,
        )
        result = figures.build_result(ended, events)
        await store.save(connection, result)

    return record_result
