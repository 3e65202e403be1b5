"""What the rest of the bot may assume of storage: these protocols, never a driver's types.

SQLite (aiosqlite) is the implementation today; a second one (PostgreSQL) implements
the same protocols. Nothing outside bot/storage imports sqlite3 or aiosqlite.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from bot.history.models import (
    HISTORY_PAGE_SIZE,
    LEADERBOARD_SIZE,
    Cursor,
    GameStory,
    HistoryPage,
    Leaderboard,
    Period,
    PlayerStats,
    Ranking,
)
from bot.history.record import GameResult


class Connection(Protocol):
    """A transaction's connection: statements with `?` placeholders.

    `execute` gives a cursor both ways: `cursor = await connection.execute(...)` and
    `async with connection.execute(...) as cursor:` (typed Any: drivers spell that
    awaitable context manager each their own way)."""

    def execute(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ..., /) -> Any: ...

    async def executemany(
        self, sql: str, parameters: Iterable[Sequence[Any] | Mapping[str, Any]], /
    ) -> Any: ...


class ResultStore(Protocol):
    """History's storage: each call runs on the caller's connection (its transaction),
    so a game's result is saved in the game's final commit, and a page reads one
    snapshot. Every read is of one game kind (`game`) in one server."""

    async def save(self, connection: Connection, result: GameResult) -> None:
        """Store a result and update the aggregates; saving a game id again does nothing."""
        ...

    async def history_page(
        self,
        connection: Connection,
        game: str,
        guild_id: int,
        *,
        user_id: int | None = None,
        before: Cursor | None = None,
        after: Cursor | None = None,
        size: int = HISTORY_PAGE_SIZE,
    ) -> HistoryPage: ...

    async def leaderboard(
        self,
        connection: Connection,
        game: str,
        guild_id: int,
        ranking: Ranking,
        period: Period,
        *,
        asker_id: int,
        now: int | None = None,
        size: int = LEADERBOARD_SIZE,
    ) -> Leaderboard: ...

    async def player_stats(
        self, connection: Connection, game: str, guild_id: int, user_id: int
    ) -> PlayerStats | None: ...

    async def game_story(
        self, connection: Connection, game: str, guild_id: int, game_id: int
    ) -> GameStory | None: ...


__all__ = ["Connection", "ResultStore"]
