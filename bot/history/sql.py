"""History in SQL, on SQLite and PostgreSQL alike (the ResultStore of
bot.history.store): save a game's result at its end, read pages, leaderboards,
records and stories for the score pages.

The tables are in `migrations/<dialect>/0003_history_by_game.sql`, every one keyed by
the game kind. `save` also keeps the aggregates (per server, per person, per person and day,
per figure, per item taken) up to date, so every read is an index range of a few rows,
never a scan of the games.

What counts for statistics and leaderboards: finished games (not abandoned) of people
(never computer players). A person's results in a game against computer players count;
a person who left a finished game before its end counts it apart, as a game left
(`left_games`), not as a game played.

A practice game (/<game> learn: scripted dice, a lesson against the computer) is stored,
with its players and story, under `<game>:practice` (`GameResult.stored_kind`) and
counted nowhere: its result says nothing of how a person plays, so no history page,
leaderboard, player card or streak shows it, and it pushes no real game off a page.

A game played with a rule variant (`GameResult.variant`, Pickomino's Extrawurm) is
counted twice: under its game kind with every other game, and under `<game>:<variant>`
(totals, days and periods only), so a leaderboard of only those games, or of every game
without them (the difference), is as cheap as one of all games.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from typing import Any

from bot.history.models import (
    DAY,
    HISTORY_PAGE_SIZE,
    LEADERBOARD_SIZE,
    WIN_RATE_MIN_GAMES,
    Cursor,
    FigureTotal,
    GameStory,
    GameSummary,
    HistoryPage,
    Leaderboard,
    LeaderboardEntry,
    Period,
    PlayerStats,
    Ranking,
    SeatLine,
    Variants,
)
from bot.history.ranking import shared_ranks
from bot.history.rating_sql import (
    PlayerRating,
    RatingBoard,
    Rebuilt,
    player_rating,
    rate_result,
    rating_board,
    rebuild,
)
from bot.history.ratings import Change
from bot.history.record import GameResult, PlayerResult
from bot.history.rows import fetch_all, fetch_one, stored_names
from bot.storage.protocols import Connection

__all__ = ["SqlResultStore"]


class SqlResultStore:
    """History in the bot's database, SQLite or PostgreSQL (the connection speaks the
    dialect); stateless, every call on the caller's connection."""

    async def save(self, connection: Connection, result: GameResult) -> list[Change]:
        """Store a game's result and update the aggregates and the skill ratings, inside
        the caller's transaction; the rating changes it made (none for an abandoned or
        practice game, or one that rates nobody: `bot.history.ratings`).

        Does not commit. Saving the same game id twice stores and counts it once.
        """
        cursor = await connection.execute(INSERT_GAME, game_row(result))
        if cursor.rowcount == 0:
            return []
        await connection.executemany(INSERT_PLAYER, [player_row(result, p) for p in result.players])
        await connection.execute(INSERT_STORY, story_row(result))
        if result.practice:
            return []  # kept, under its own kind (GameResult.stored_kind), and counted nowhere
        await connection.execute(COUNT_GUILD_GAME, (result.game, result.guild_id))
        people = [player for player in result.players if not player.is_bot]
        keys = [result.game]
        if result.variant is not None:
            keys.append(variant_key(result.game, result.variant))
        await connection.executemany(
            UPSERT_TOTALS, [totals_row(result, p, key) for key in keys for p in people]
        )
        if result.abandoned:
            return []
        await connection.executemany(UPSERT_FIGURE, list(figure_rows(result, people)))
        await connection.executemany(UPSERT_ITEM, list(item_rows(result, people)))
        stayed = [player for player in people if not player.left]
        await connection.executemany(
            UPSERT_DAY, [day_row(result, p, key) for key in keys for p in stayed]
        )
        await connection.executemany(
            UPSERT_PERIOD, [period_row(result, p, key) for key in keys for p in stayed]
        )
        return await rate_result(connection, result)

    # ------------------------------------------------------------------ history

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
    ) -> HistoryPage:
        """A page of a community's games of one kind (or one person's), newest first;
        `guild_id` None: one person's in every community (a person is required).

        With neither cursor: the newest page. `before`: the page of older games after a
        page ending there (Next). `after`: the page of newer games before a page
        starting there (Previous). Keyset paging, so a deep page costs what the first
        one does.
        """
        if before is not None and after is not None:
            raise ValueError("page before or after a cursor, not both")
        if user_id is None:
            if guild_id is None:
                raise ValueError("every community's games are one person's, not everyone's")
            source = "history_games WHERE game = ? AND guild_id = ?"
            args: list[Any] = [game, guild_id]
        elif guild_id is None:
            source = "history_players WHERE game = ? AND user_id = ?"
            args = [game, user_id]
        else:
            source = "history_players WHERE game = ? AND guild_id = ? AND user_id = ?"
            args = [game, guild_id, user_id]
        newer_first = after is None
        cursor = before or after
        if cursor is not None:
            source += " AND (ended_at, game_id) " + ("<" if newer_first else ">") + " (?, ?)"
            args += [cursor.ended_at, cursor.game_id]
        order = "DESC" if newer_first else "ASC"
        rows = await fetch_all(
            connection,
            f"SELECT game_id FROM {source} ORDER BY ended_at {order}, game_id {order} LIMIT ?",
            [*args, size + 1],
        )
        more = len(rows) > size
        ids = [row[0] for row in rows[:size]]
        if not newer_first:
            ids.reverse()
        games = await _summaries(connection, ids)
        total = await _history_total(connection, game, guild_id, user_id)
        if newer_first:
            return HistoryPage(games, total, has_newer=cursor is not None, has_older=more)
        return HistoryPage(games, total, has_newer=more, has_older=True)

    # ------------------------------------------------------------------ leaderboard

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
    ) -> Leaderboard:
        """The top `size` people of a server in one game, and the asker's own row wherever
        they rank.

        Only a value above zero ranks: nobody is first with no wins. Equal values share
        a rank (1, 1, 3); among them the better record comes first (`_TIE_ORDER`). Win
        rate ranks only people with WIN_RATE_MIN_GAMES finished games in the period.
        Periods are whole UTC days, today included. `variants` picks the games of the
        rule variant `variant`: all of them, only them, or every game without them. For
        a 7- or 30-day period this may write: it rolls the window forward to `now` (in a
        savepoint, so inside or outside a transaction).
        """
        if variant is None or variants is Variants.ALL:
            variants = Variants.ALL
        first_day = period.first_day(int(time.time()) if now is None else now)
        variant_game = variant_key(game, variant) if variant is not None else game
        key = variant_game if variants is Variants.ONLY else game
        args: list[Any]
        if first_day is None:
            table, where, args = "history_totals", "", [guild_id]
        else:
            for rolled in {key, variant_game} if variants is Variants.WITHOUT else {key}:
                await _roll_window(connection, rolled, guild_id, period, first_day)
            table, where, args = "history_periods", " AND a.period = ?", [guild_id, str(period)]
        if variants is Variants.WITHOUT:
            # Every game minus the variant's: the variant's row of the same person, if any.
            same = "b.guild_id = a.guild_id AND b.user_id = a.user_id"
            if first_day is not None:
                same += " AND b.period = a.period"
            totals = (
                "SELECT a.user_id, a.games - coalesce(b.games, 0) AS games,"
                " a.wins - coalesce(b.wins, 0) AS wins, a.score - coalesce(b.score, 0) AS score"
                f" FROM {table} AS a LEFT JOIN {table} AS b ON b.game = ? AND {same}"
                f" WHERE a.game = ? AND a.guild_id = ?{where}"
            )
            args = [variant_game, key, *args]
        else:
            totals = (
                f"SELECT a.user_id, a.games, a.wins, a.score FROM {table} AS a"
                f" WHERE a.game = ? AND a.guild_id = ?{where}"
            )
            args = [key, *args]
        metric = _METRIC[ranking]
        minimum = WIN_RATE_MIN_GAMES if ranking is Ranking.WIN_RATE else 1
        # One pass over the period's totals (materialized once), read three ways: the
        # top rows (a top-N sort), the asker's row with their rank (a count of better
        # values), and the counts. Ranks inside the top come from its order.
        rows = await fetch_all(
            connection,
            f"""
            WITH totals AS MATERIALIZED ({totals}),
            ranked AS (
                SELECT user_id, games, wins, score, {metric} AS value FROM totals
                WHERE games >= ? AND {metric} > 0
            )
            SELECT * FROM (
                SELECT 0, user_id, games, wins, score, value FROM ranked
                ORDER BY value DESC, {_TIE_ORDER[ranking]}, user_id LIMIT ?
            )
            UNION ALL
            SELECT 1, me.user_id, me.games, me.wins, me.score,
                1 + (SELECT count(*) FROM ranked AS better WHERE better.value > me.value)
            FROM ranked AS me WHERE me.user_id = ?
            UNION ALL
            SELECT 2, NULL, (SELECT count(*) FROM ranked),
                (SELECT games FROM totals WHERE user_id = ?),
                (SELECT count(*) FROM totals WHERE games >= ?), NULL
            ORDER BY 1, value DESC, {_TIE_ORDER[ranking]}, user_id
            """,
            [*args, minimum, size, asker_id, asker_id, minimum],
        )
        top_rows = [row for row in rows if row[0] == 0]  # in the ORDER BY's order
        asker_row = next((row for row in rows if row[0] == 1), None)
        (_, _, ranked_players, asker_games, players, _) = next(row for row in rows if row[0] == 2)
        names = await stored_names(
            connection,
            game,
            guild_id,
            [row[1] for row in top_rows] + ([asker_id] if asker_row else []),
        )
        ranks = shared_ranks([row[5] for row in top_rows])
        top = [
            LeaderboardEntry(rank, user_id, names[user_id], games, wins, score)
            for rank, (_, user_id, games, wins, score, _) in zip(ranks, top_rows, strict=True)
        ]
        asker = None
        if asker_row is not None:
            _, user_id, games, wins, score, rank = asker_row
            asker = LeaderboardEntry(rank, user_id, names[user_id], games, wins, score)
        return Leaderboard(
            ranking,
            period,
            tuple(top),
            asker,
            ranked_players,
            asker_games or 0,
            players or 0,
            variants,
        )

    # ------------------------------------------------------------------ one player

    async def player_stats(
        self,
        connection: Connection,
        game: str,
        guild_id: int | None,
        user_id: int,
        *,
        variant: str | None = None,
    ) -> PlayerStats | None:
        """A person's record in a community and game, or None if they never played it
        there; `guild_id` None: in every community (`_player_everywhere`). With
        `variant`, how many of their finished games were played with it."""
        if guild_id is None:
            return await _player_everywhere(connection, game, user_id, variant)
        key = (game, guild_id, user_id)
        row = await fetch_one(
            connection,
            "SELECT name, games, wins, score, best_score, current_streak, longest_streak,"
            " stored_games, left_games FROM history_totals"
            " WHERE game = ? AND guild_id = ? AND user_id = ?",
            key,
        )
        if row is None:
            return None
        figures = await fetch_all(
            connection,
            "SELECT figure, total, best FROM history_figures"
            " WHERE game = ? AND guild_id = ? AND user_id = ?",
            key,
        )
        favourite = await fetch_one(
            connection,
            "SELECT item, taken FROM history_items WHERE game = ? AND guild_id = ?"
            " AND user_id = ? ORDER BY taken DESC, item DESC LIMIT 1",
            key,
        )
        name, games, wins, score, best, current_streak, longest_streak, stored, left = row
        variant_games = None
        if variant is not None:
            counted = await fetch_one(
                connection,
                "SELECT games FROM history_totals WHERE game = ? AND guild_id = ? AND user_id = ?",
                (variant_key(game, variant), guild_id, user_id),
            )
            variant_games = counted[0] if counted else 0
        return PlayerStats(
            user_id=user_id,
            name=name,
            games=games,
            wins=wins,
            score=score,
            best_score=best,
            current_streak=current_streak,
            longest_streak=longest_streak,
            figures={figure: FigureTotal(total, most) for figure, total, most in figures},
            favourite=favourite[0] if favourite else None,
            favourite_taken=favourite[1] if favourite else 0,
            stored_games=stored,
            left_games=left,
            variant_games=variant_games,
        )

    # ------------------------------------------------------------------ ratings

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
    ) -> RatingBoard:
        """The rating ranking of a community (bot.history.rating_sql.rating_board)."""
        return await rating_board(
            connection, game, guild_id, period, asker_id=asker_id, now=now, size=size
        )

    async def player_rating(
        self, connection: Connection, game: str, guild_id: int, user_id: int
    ) -> PlayerRating | None:
        return await player_rating(connection, game, guild_id, user_id)

    async def rebuild_ratings(self, connection: Connection, *, dialect: str) -> Rebuilt:
        return await rebuild(connection, dialect=dialect)

    # ------------------------------------------------------------------ one game

    async def game_story(
        self,
        connection: Connection,
        game: str,
        guild_id: int,
        game_id: int,
        *,
        player_id: int | None = None,
    ) -> GameStory | None:
        """One game of this kind and community with its story, or None (unknown, or
        another community's or game's); with `player_id`, a game that person played in
        any community too (one's own history outside a server lists them all)."""
        where = "g.guild_id = ?"
        args: list[Any] = [game_id, game, guild_id]
        if player_id is not None:
            where += (
                " OR EXISTS (SELECT 1 FROM history_players AS p"
                " WHERE p.game_id = g.game_id AND p.user_id = ?)"
            )
            args.append(player_id)
        row = await fetch_one(
            connection,
            "SELECT s.turns FROM history_games AS g JOIN game_stories AS s USING (game_id)"
            f" WHERE g.game_id = ? AND g.game = ? AND ({where})",
            args,
        )
        if row is None:
            return None
        (summary,) = await _summaries(connection, [game_id])
        return GameStory(summary, tuple(json.loads(row[0])))


# ---------------------------------------------------------------------- writing
#
# The statements and rows of save, also used by benchmarks/bench_history.py to fill a
# large database with executemany.

INSERT_GAME = (
    "INSERT INTO history_games (game_id, game, guild_id, channel_id, started_at, ended_at,"
    " abandoned, has_bots, turns, options, variant) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (game_id) DO NOTHING"
)

INSERT_STORY = "INSERT INTO game_stories (game_id, turns) VALUES (?, ?)"

COUNT_GUILD_GAME = (
    "INSERT INTO history_guilds (game, guild_id, games) VALUES (?, ?, 1)"
    " ON CONFLICT (game, guild_id) DO UPDATE SET games = games + 1"
)

INSERT_PLAYER = (
    "INSERT INTO history_players (game_id, seat, game, guild_id, ended_at, user_id, name,"
    " is_bot, left_game, score, rank, won, details, end_state, bot_level)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

# SET expressions read the row as it was before the update, so the streaks are
# computed from the old current_streak. Leaving a finished game ends a winning streak.
UPSERT_TOTALS = """
INSERT INTO history_totals (game, guild_id, user_id, name, stored_games, games, wins, score,
    best_score, current_streak, longest_streak, left_games)
VALUES (:game, :guild_id, :user_id, :name, 1, :games, :wins, :score, :score, :wins, :wins,
    :left_games)
ON CONFLICT (game, guild_id, user_id) DO UPDATE SET
    name = excluded.name,
    stored_games = stored_games + 1,
    games = games + excluded.games,
    wins = wins + excluded.wins,
    score = score + excluded.score,
    best_score = max(best_score, excluded.best_score),
    current_streak = CASE
        WHEN excluded.left_games = 1 THEN 0
        WHEN excluded.games = 0 THEN current_streak
        WHEN excluded.wins = 1 THEN current_streak + 1
        ELSE 0 END,
    longest_streak = max(longest_streak, CASE
        WHEN excluded.wins = 1 THEN current_streak + 1 ELSE 0 END),
    left_games = left_games + excluded.left_games
"""

UPSERT_DAY = """
INSERT INTO history_days (game, guild_id, day, user_id, games, wins, score)
VALUES (?, ?, ?, ?, 1, ?, ?)
ON CONFLICT (game, guild_id, day, user_id) DO UPDATE SET
    games = games + 1, wins = wins + excluded.wins, score = score + excluded.score
"""

# Into every rolling window of the server and game that the game's day falls in.
UPSERT_PERIOD = """
INSERT INTO history_periods (game, guild_id, period, user_id, games, wins, score)
SELECT game, guild_id, period, :user_id, 1, :wins, :score FROM history_windows
WHERE game = :game AND guild_id = :guild_id AND first_day <= :day
ON CONFLICT (game, guild_id, period, user_id) DO UPDATE SET
    games = games + 1, wins = wins + excluded.wins, score = score + excluded.score
"""

UPSERT_FIGURE = """
INSERT INTO history_figures (game, guild_id, user_id, figure, total, best)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (game, guild_id, user_id, figure) DO UPDATE SET
    total = total + excluded.total, best = max(best, excluded.best)
"""

UPSERT_ITEM = """
INSERT INTO history_items (game, guild_id, user_id, item, taken) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (game, guild_id, user_id, item) DO UPDATE SET taken = taken + excluded.taken
"""


def game_row(result: GameResult) -> tuple[Any, ...]:
    return (
        result.game_id,
        result.stored_kind,
        result.guild_id,
        result.channel_id,
        result.started_at,
        result.ended_at,
        result.abandoned,
        result.has_bots,
        result.turns,
        json.dumps(result.options, sort_keys=True),
        result.variant,
    )


def story_row(result: GameResult) -> tuple[int, str]:
    return (result.game_id, json.dumps([line.to_row() for line in result.story]))


def player_row(result: GameResult, player: PlayerResult) -> tuple[Any, ...]:
    return (
        result.game_id,
        player.seat,
        result.stored_kind,
        result.guild_id,
        result.ended_at,
        player.user_id,
        player.name,
        player.is_bot,
        player.left,
        player.score,
        player.rank,
        player.won,
        json.dumps(player.details, sort_keys=True),
        json.dumps(player.end_state, sort_keys=True),
        player.bot_level if player.is_bot else None,
    )


def variant_key(game: str, variant: str) -> str:
    """The aggregate key a variant's games are counted under as well as the game's."""
    return f"{game}:{variant}"


def totals_row(result: GameResult, player: PlayerResult, key: str) -> dict[str, Any]:
    finished = not result.abandoned
    counted = finished and not player.left
    return {
        "game": key,
        "guild_id": result.guild_id,
        "user_id": player.user_id,
        "name": player.name,
        "games": int(counted),
        "wins": int(counted and player.won),
        "score": player.score if counted else 0,
        "left_games": int(finished and player.left),
    }


def day_row(result: GameResult, player: PlayerResult, key: str) -> tuple[Any, ...]:
    day = result.ended_at // DAY
    return (key, result.guild_id, day, player.user_id, int(player.won), player.score)


def period_row(result: GameResult, player: PlayerResult, key: str) -> dict[str, Any]:
    return {
        "game": key,
        "guild_id": result.guild_id,
        "user_id": player.user_id,
        "wins": int(player.won),
        "score": player.score,
        "day": result.ended_at // DAY,
    }


def figure_rows(result: GameResult, people: Iterable[PlayerResult]) -> Iterable[tuple[Any, ...]]:
    for player in people:
        for figure, count in sorted(player.details.items()):
            yield (result.game, result.guild_id, player.user_id, figure, count, count)


def item_rows(result: GameResult, people: Iterable[PlayerResult]) -> Iterable[tuple[Any, ...]]:
    for player in people:
        for item, count in sorted(player.taken.items()):
            yield (result.game, result.guild_id, player.user_id, item, count)


# ---------------------------------------------------------------------- reading


async def _player_everywhere(
    connection: Connection, game: str, user_id: int, variant: str | None
) -> PlayerStats | None:
    """A person's record in a game over every community they played it in: the rows of
    each (game, community, person) added up. Counters (games, wins, score, stored and
    left games, a figure's total, an item's times taken) are sums and bests (best score,
    a figure's most in one game) maxima; the name is the latest game's. Streaks are
    neither: a run of wins may go from one community to another, so they are counted
    again from the person's finished games in the order they ended (`_STREAKS`)."""
    key = (game, user_id)
    row = await fetch_one(
        connection,
        "SELECT sum(games), sum(wins), sum(score), max(best_score), sum(stored_games),"
        " sum(left_games) FROM history_totals WHERE game = ? AND user_id = ?",
        key,
    )
    if row is None or row[0] is None:
        return None
    games, wins, score, best, stored, left = row
    named = await fetch_one(
        connection,
        "SELECT name FROM history_players WHERE game = ? AND user_id = ?"
        " ORDER BY ended_at DESC, game_id DESC LIMIT 1",
        key,
    )
    streaks = await fetch_one(connection, _STREAKS, key)
    longest_streak, current_streak = streaks if streaks is not None else (0, 0)
    # The person's communities, so figures and items are read by their primary keys.
    communities = "SELECT guild_id FROM history_totals WHERE game = ? AND user_id = ?"
    figures = await fetch_all(
        connection,
        "SELECT figure, sum(total), max(best) FROM history_figures"
        f" WHERE game = ? AND guild_id IN ({communities}) AND user_id = ? GROUP BY figure",
        (game, *key, user_id),
    )
    favourite = await fetch_one(
        connection,
        "SELECT item, sum(taken) AS taken FROM history_items"
        f" WHERE game = ? AND guild_id IN ({communities}) AND user_id = ?"
        " GROUP BY item ORDER BY taken DESC, item DESC LIMIT 1",
        (game, *key, user_id),
    )
    variant_games = None
    if variant is not None:
        counted = await fetch_one(
            connection,
            "SELECT sum(games) FROM history_totals WHERE game = ? AND user_id = ?",
            (variant_key(game, variant), user_id),
        )
        variant_games = counted[0] if counted and counted[0] is not None else 0
    return PlayerStats(
        user_id=user_id,
        name=named[0] if named else str(user_id),
        games=games,
        wins=wins,
        score=score,
        best_score=best,
        current_streak=current_streak or 0,
        longest_streak=longest_streak or 0,
        figures={figure: FigureTotal(total, most) for figure, total, most in figures},
        favourite=favourite[0] if favourite else None,
        favourite_taken=favourite[1] if favourite else 0,
        stored_games=stored,
        left_games=left,
        variant_games=variant_games,
    )


# A person's winning streaks over their finished games in every community, as
# UPSERT_TOTALS counts them in one: in the order the games ended, a win adds one, any
# other finished game (lost, or left before the end) ends the streak, and an abandoned
# game changes nothing. Each game that is not a win starts a new run (`breaks` counts
# them so far); the longest run is the most wins with one `breaks`, the current one the
# wins after the last game that was not a win.
_STREAKS = """
WITH finished AS (
    SELECT p.ended_at, p.game_id,
        CASE WHEN p.won = 1 AND p.left_game = 0 THEN 1 ELSE 0 END AS win
    FROM history_players AS p JOIN history_games AS g ON g.game_id = p.game_id
    WHERE p.game = ? AND p.user_id = ? AND g.abandoned = 0
),
runs AS (
    SELECT win, sum(1 - win) OVER (
        ORDER BY ended_at, game_id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS breaks
    FROM finished
),
lengths AS (
    SELECT breaks, sum(win) AS wins FROM runs GROUP BY breaks
)
SELECT max(wins), sum(CASE WHEN breaks = (SELECT max(breaks) FROM runs) THEN wins ELSE 0 END)
FROM lengths
"""


async def _history_total(
    connection: Connection, game: str, guild_id: int | None, user_id: int | None
) -> int:
    if user_id is None:
        row = await fetch_one(
            connection,
            "SELECT games FROM history_guilds WHERE game = ? AND guild_id = ?",
            (game, guild_id),
        )
    elif guild_id is None:
        row = await fetch_one(
            connection,
            "SELECT sum(stored_games) FROM history_totals WHERE game = ? AND user_id = ?",
            (game, user_id),
        )
    else:
        row = await fetch_one(
            connection,
            "SELECT stored_games FROM history_totals"
            " WHERE game = ? AND guild_id = ? AND user_id = ?",
            (game, guild_id, user_id),
        )
    return row[0] if row and row[0] is not None else 0


async def _summaries(connection: Connection, ids: Sequence[int]) -> tuple[GameSummary, ...]:
    """The games of `ids`, in that order, with their seats."""
    if not ids:
        return ()
    marks = ", ".join("?" * len(ids))
    games = await fetch_all(
        connection,
        "SELECT game_id, game, channel_id, started_at, ended_at, abandoned, has_bots, variant"
        f" FROM history_games WHERE game_id IN ({marks})",
        ids,
    )
    seats = await fetch_all(
        connection,
        "SELECT game_id, seat, user_id, name, is_bot, score, rank, won, left_game, end_state"
        f" FROM history_players WHERE game_id IN ({marks}) ORDER BY game_id, seat",
        ids,
    )
    seats_of: dict[int, list[SeatLine]] = {game_id: [] for game_id in ids}
    for game_id, seat, user, name, is_bot, score, rank, won, left, end_state in seats:
        seats_of[game_id].append(
            SeatLine(
                seat=seat,
                user_id=user,
                name=name,
                is_bot=bool(is_bot),
                score=score,
                rank=rank,
                won=bool(won),
                left=bool(left),
                end_state=json.loads(end_state),
            )
        )
    by_id = {
        game_id: GameSummary(
            game=game,
            game_id=game_id,
            channel_id=channel_id,
            started_at=started_at,
            ended_at=ended_at,
            abandoned=bool(abandoned),
            has_bots=bool(has_bots),
            seats=tuple(seats_of[game_id]),
            variant=variant,
        )
        for game_id, game, channel_id, started_at, ended_at, abandoned, has_bots, variant in games
    }
    return tuple(by_id[game_id] for game_id in ids if game_id in by_id)


# Trusted SQL fragments per ranking (never user text): the value ranked on. DOUBLE
# PRECISION: PostgreSQL's REAL is single precision; SQLite reads either as REAL.
_METRIC = {
    Ranking.WINS: "wins",
    Ranking.WIN_RATE: "CAST(wins AS DOUBLE PRECISION) / games",
    Ranking.AVERAGE_SCORE: "CAST(score AS DOUBLE PRECISION) / games",
    Ranking.GAMES: "games",
}


# Among equal values (one shared rank) the better record is listed first: for wins, fewer
# games (the better rate); for a rate or an average, more games (held over longer); for
# games played, more wins. As SQL for the top-N and as a Python key for its order.
_TIE_ORDER = {
    Ranking.WINS: "games ASC",
    Ranking.WIN_RATE: "games DESC",
    Ranking.AVERAGE_SCORE: "games DESC",
    Ranking.GAMES: "wins DESC",
}


async def _roll_window(
    connection: Connection, game: str, guild_id: int, period: Period, first_day: int
) -> None:
    """Bring history_periods to the window starting at `first_day`.

    Usually nothing to do, or one day to subtract; built from history_days on first use,
    after a long quiet spell, or if asked for an earlier window than the stored one.
    """
    row = await fetch_one(
        connection,
        "SELECT first_day FROM history_windows WHERE game = ? AND guild_id = ? AND period = ?",
        (game, guild_id, str(period)),
    )
    if row is not None and row[0] == first_day:
        return
    key = {"game": game, "guild_id": guild_id, "period": str(period), "first_day": first_day}
    await connection.execute("SAVEPOINT roll_window")
    try:
        if row is None or row[0] > first_day or first_day - row[0] >= (period.days or 0):
            # No window yet, an earlier one asked for, or no day in common: build afresh.
            await connection.execute(_DROP_WINDOW, key)
            await connection.execute(_BUILD_WINDOW, key)
        else:
            await connection.execute(_SUBTRACT_DAYS, {**key, "old_first_day": row[0]})
            await connection.execute(_DROP_EMPTY, key)
        await connection.execute(_SET_WINDOW, key)
    except BaseException:
        await connection.execute("ROLLBACK TO roll_window")
        await connection.execute("RELEASE roll_window")
        raise
    await connection.execute("RELEASE roll_window")


_THIS_WINDOW = "game = :game AND guild_id = :guild_id AND period = :period"

_DROP_WINDOW = f"DELETE FROM history_periods WHERE {_THIS_WINDOW}"

_BUILD_WINDOW = """
INSERT INTO history_periods (game, guild_id, period, user_id, games, wins, score)
SELECT game, guild_id, :period, user_id, sum(games), sum(wins), sum(score) FROM history_days
WHERE game = :game AND guild_id = :guild_id AND day >= :first_day
GROUP BY game, guild_id, user_id
"""

_SUBTRACT_DAYS = """
UPDATE history_periods SET games = history_periods.games - gone.games,
    wins = history_periods.wins - gone.wins, score = history_periods.score - gone.score
FROM (
    SELECT user_id, sum(games) AS games, sum(wins) AS wins, sum(score) AS score
    FROM history_days
    WHERE game = :game AND guild_id = :guild_id
        AND day >= :old_first_day AND day < :first_day
    GROUP BY user_id
) AS gone
WHERE history_periods.game = :game AND history_periods.guild_id = :guild_id
    AND history_periods.period = :period AND history_periods.user_id = gone.user_id
"""

_DROP_EMPTY = f"DELETE FROM history_periods WHERE {_THIS_WINDOW} AND games = 0"

_SET_WINDOW = """
INSERT INTO history_windows (game, guild_id, period, first_day)
VALUES (:game, :guild_id, :period, :first_day)
ON CONFLICT (game, guild_id, period) DO UPDATE SET first_day = excluded.first_day
"""
