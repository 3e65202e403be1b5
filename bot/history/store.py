"""What history is stored through: a `ResultStore` (bot.history.sql.SqlResultStore on
SQLite and PostgreSQL alike) runs each call on the caller's connection."""

from __future__ import annotations

from typing import Protocol

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
    Variants,
)
from bot.history.rating_sql import PlayerRating, RatingBoard, Rebuilt
from bot.history.ratings import Change
from bot.history.record import GameResult
from bot.storage.protocols import Connection


class ResultStore(Protocol):
    """History's storage: each call runs on the caller's connection (its transaction),
    so a game's result is saved in the game's final commit, and a page reads one
    snapshot. Every read is of one game kind (`game`) in one community (`guild_id`: the
    server, or for a game played outside one, its chat: `Session.community_id`); a
    person's history and record may be read in every community (`guild_id` None)."""

    async def save(self, connection: Connection, result: GameResult) -> list[Change]:
        """Store a result and update the aggregates and the skill ratings; the rating
        changes it made. Saving a game id again does nothing."""
        ...

    async def rating_board(
        self,
        connection: Connection,
        game: str,
        guild_id: int,
        period: Period,
        *,
        asker_id: int,
        now: int | None = None,
        size: int = LEADERBOARD_SIZE,
    ) -> RatingBoard: ...

    async def player_rating(
        self, connection: Connection, game: str, guild_id: int, user_id: int
    ) -> PlayerRating | None: ...

    async def rebuild_ratings(self, connection: Connection, *, dialect: str) -> Rebuilt:
        """Every community's ratings again from history, in the caller's transaction."""
        ...

    async def history_page(
        self,
        connection: Connection,
        game: str,
        guild_id: int | None,
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
        variant: str | None = None,
        variants: Variants = Variants.ALL,
    ) -> Leaderboard: ...

    async def player_stats(
        self,
        connection: Connection,
        game: str,
        guild_id: int | None,
        user_id: int,
        *,
        variant: str | None = None,
    ) -> PlayerStats | None: ...

    async def game_story(
        self,
        connection: Connection,
        game: str,
        guild_id: int,
        game_id: int,
        *,
        player_id: int | None = None,
    ) -> GameStory | None: ...
