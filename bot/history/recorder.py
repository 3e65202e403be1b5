"""The game-over hook that records a game in history, for any game.

The session layer runs it inside the game's final commit (docs/ARCHITECTURE.md):
`recorder(figures, store)` is the hook of the game whose HistoryFigures is `figures`.
It saves the result, which rates the game, and leaves each person's rating change on
the session (`Session.rating_changes`), which the final commit then writes with it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.history.figures import HistoryFigures
from bot.history.record import EndedGame, SeatInfo
from bot.history.store import ResultStore
from bot.sessions.model import Ending, RatingChange, Session
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
        levels = {seat.user_id: seat.bot_level for seat in session.seats if seat.is_bot}
        for player in result.players:
            player.bot_level = levels.get(player.user_id) if player.is_bot else None
        changes = await store.save(connection, result)
        # People's changes, for the end screen (the session's row is written again).
        session.rating_changes = tuple(
            RatingChange(change.player.user_id, change.before.shown, change.after.shown)
            for change in changes
            if change.player.is_person
        )

    return record_result
