"""Game results in SQLite: save one at the end of a game, read them for the score commands.

The tables are in `migrations/0002_results.sql`. `save_result` also keeps the
aggregates (per server, per person, per person and day, per person and tile) up to date,
so every read is an index range of a few rows, never a scan of the games.

What counts for statistics and leaderboards: finished games (not abandoned) of people
(never computer players). A person's results in a game against computer players count;
a player who left a finished game counts it as a game played and not won.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from bot.stats.models import (
    DAY,
    HISTORY_PAGE_SIZE,
    LEADERBOARD_SIZE,
    WIN_RATE_MIN_GAMES,
    Cursor,
    GameStory,
    GameSummary,
    HistoryPage,
    Leaderboard,
    LeaderboardEntry,
    Period,
    PlayerStats,
    Ranking,
    SeatLine,
)
from bot.stats.record import GameResult, Outcome, PlayerResult, Turn
from bot.storage.protocols import Connection

__all__ = ["game_story", "history_page", "leaderboard", "player_stats", "save_result"]


# ---------------------------------------------------------------------- writing


async def save_result(conn: Connection, result: GameResult) -> None:
    """Store a game's result and update the aggregates, inside the caller's transaction.

    Does not commit. Saving the same game id twice stores and counts it once.
    """
    cursor = await conn.execute(_INSERT_GAME, _game_row(result))
    if cursor.rowcount == 0:
        return
    await conn.executemany(_INSERT_PLAYER, [_player_row(result, p) for p in result.players])
    await conn.execute(_INSERT_STORY, _story_row(result))
    await conn.execute(_COUNT_GUILD_GAME, (result.guild_id,))
    people = [player for player in result.players if not player.is_bot]
    await conn.executemany(_UPSERT_TOTALS, [_totals_row(result, p) for p in people])
    if result.abandoned:
        return
    await conn.executemany(_UPSERT_DAY, [_day_row(result, p) for p in people])
    await conn.executemany(_UPSERT_TILE, list(_tile_rows(result, people)))
    await conn.executemany(_UPSERT_PERIOD, [_period_row(result, p) for p in people])


# The statements and rows of save_result, also used by benchmarks/bench_history.py to
# fill a large database with executemany.
_INSERT_GAME = (
    "INSERT INTO game_results (game_id, guild_id, channel_id, started_at, ended_at,"
    " abandoned, has_bots, turns, rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (game_id) DO NOTHING"
)

_INSERT_STORY = "INSERT INTO game_stories (game_id, turns) VALUES (?, ?)"

_COUNT_GUILD_GAME = (
    "INSERT INTO guild_totals (guild_id, games) VALUES (?, 1)"
    " ON CONFLICT (guild_id) DO UPDATE SET games = games + 1"
)

_INSERT_PLAYER = (
    "INSERT INTO player_results (game_id, seat, guild_id, ended_at, user_id, name, is_bot,"
    " left_game, worms, tiles, rank, won, grill_takes, steals, stolen_from, failures, turns)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

# SET expressions read the row as it was before the update, so the streaks are
# computed from the old current_streak.
_UPSERT_TOTALS = """
INSERT INTO player_totals (guild_id, user_id, name, stored_games, games, wins, worms,
    best_worms, grill_takes, steals, stolen_from, failures, turns, current_streak,
    longest_streak)
VALUES (:guild_id, :user_id, :name, 1, :games, :wins, :worms, :worms, :grill_takes,
    :steals, :stolen_from, :failures, :turns, :wins, :wins)
ON CONFLICT (guild_id, user_id) DO UPDATE SET
    name = excluded.name,
    stored_games = stored_games + 1,
    games = games + excluded.games,
    wins = wins + excluded.wins,
    worms = worms + excluded.worms,
    best_worms = max(best_worms, excluded.best_worms),
    grill_takes = grill_takes + excluded.grill_takes,
    steals = steals + excluded.steals,
    stolen_from = stolen_from + excluded.stolen_from,
    failures = failures + excluded.failures,
    turns = turns + excluded.turns,
    current_streak = CASE
        WHEN excluded.games = 0 THEN current_streak
        WHEN excluded.wins = 1 THEN current_streak + 1
        ELSE 0 END,
    longest_streak = max(longest_streak, CASE
        WHEN excluded.wins = 1 THEN current_streak + 1 ELSE 0 END)
"""

_UPSERT_DAY = """
INSERT INTO player_days (guild_id, day, user_id, games, wins, worms)
VALUES (?, ?, ?, 1, ?, ?)
ON CONFLICT (guild_id, day, user_id) DO UPDATE SET
    games = games + 1, wins = wins + excluded.wins, worms = worms + excluded.worms
"""

# Into every rolling window of the server that the game's day falls in.
_UPSERT_PERIOD = """
INSERT INTO period_totals (guild_id, period, user_id, games, wins, worms)
SELECT guild_id, period, :user_id, 1, :wins, :worms FROM period_windows
WHERE guild_id = :guild_id AND first_day <= :day
ON CONFLICT (guild_id, period, user_id) DO UPDATE SET
    games = games + 1, wins = wins + excluded.wins, worms = worms + excluded.worms
"""

_UPSERT_TILE = """
INSERT INTO player_tiles (guild_id, user_id, tile, taken) VALUES (?, ?, ?, ?)
ON CONFLICT (guild_id, user_id, tile) DO UPDATE SET taken = taken + excluded.taken
"""


def _game_row(result: GameResult) -> tuple[Any, ...]:
    return (
        result.game_id,
        result.guild_id,
        result.channel_id,
        result.started_at,
        result.ended_at,
        result.abandoned,
        result.has_bots,
        result.turns,
        json.dumps(result.rules, sort_keys=True),
    )


def _story_row(result: GameResult) -> tuple[int, str]:
    return (result.game_id, json.dumps([turn.to_row() for turn in result.story]))


def _player_row(result: GameResult, player: PlayerResult) -> tuple[Any, ...]:
    return (
        result.game_id,
        player.seat,
        result.guild_id,
        result.ended_at,
        player.user_id,
        player.name,
        player.is_bot,
        player.left,
        player.worms,
        " ".join(map(str, player.tiles)),
        player.rank,
        player.won,
        player.grill_takes,
        player.steals,
        player.stolen_from,
        player.failures,
        player.turns,
    )


def _totals_row(result: GameResult, player: PlayerResult) -> dict[str, Any]:
    counted = not result.abandoned
    return {
        "guild_id": result.guild_id,
        "user_id": player.user_id,
        "name": player.name,
        "games": int(counted),
        "wins": int(counted and player.won),
        "worms": player.worms if counted else 0,
        "grill_takes": player.grill_takes if counted else 0,
        "steals": player.steals if counted else 0,
        "stolen_from": player.stolen_from if counted else 0,
        "failures": player.failures if counted else 0,
        "turns": player.turns if counted else 0,
    }


def _day_row(result: GameResult, player: PlayerResult) -> tuple[int, ...]:
    day = result.ended_at // DAY
    return (result.guild_id, day, player.user_id, int(player.won), player.worms)


def _period_row(result: GameResult, player: PlayerResult) -> dict[str, int]:
    return {
        "guild_id": result.guild_id,
        "user_id": player.user_id,
        "wins": int(player.won),
        "worms": player.worms,
        "day": result.ended_at // DAY,
    }


def _tile_rows(
    result: GameResult, people: Iterable[PlayerResult]
) -> Iterable[tuple[int, int, int, int]]:
    seats = {player.seat: player for player in people}
    taken = Counter(
        (turn.seat, turn.tile)
        for turn in result.story
        if turn.seat in seats
        and turn.outcome in (Outcome.TOOK, Outcome.STOLE)
        and turn.tile is not None  # always so for a take or a steal
    )
    for (seat, tile), count in sorted(taken.items()):
        yield (result.guild_id, seats[seat].user_id, tile, count)


# ---------------------------------------------------------------------- history


async def history_page(
    conn: Connection,
    guild_id: int,
    *,
    user_id: int | None = None,
    before: Cursor | None = None,
    after: Cursor | None = None,
    size: int = HISTORY_PAGE_SIZE,
) -> HistoryPage:
    """A page of a server's games (or one person's), newest first.

    With neither cursor: the newest page. `before`: the page of older games after a
    page ending there (Next). `after`: the page of newer games before a page starting
    there (Previous). Keyset paging, so a deep page costs what the first one does.
    """
    if before is not None and after is not None:
        raise ValueError("page before or after a cursor, not both")
    if user_id is None:
        source, args = "game_results WHERE guild_id = ?", [guild_id]
    else:
        source, args = "player_results WHERE guild_id = ? AND user_id = ?", [guild_id, user_id]
    newer_first = after is None
    cursor = before or after
    if cursor is not None:
        source += " AND (ended_at, game_id) " + ("<" if newer_first else ">") + " (?, ?)"
        args += [cursor.ended_at, cursor.game_id]
    order = "DESC" if newer_first else "ASC"
    rows = await _fetchall(
        conn,
        f"SELECT game_id FROM {source} ORDER BY ended_at {order}, game_id {order} LIMIT ?",
        [*args, size + 1],
    )
    more = len(rows) > size
    ids = [row[0] for row in rows[:size]]
    if not newer_first:
        ids.reverse()
    games = await _summaries(conn, ids)
    total = await _history_total(conn, guild_id, user_id)
    if newer_first:
        return HistoryPage(games, total, has_newer=cursor is not None, has_older=more)
    return HistoryPage(games, total, has_newer=more, has_older=True)


async def _history_total(conn: Connection, guild_id: int, user_id: int | None) -> int:
    if user_id is None:
        row = await _fetchone(
            conn, "SELECT games FROM guild_totals WHERE guild_id = ?", (guild_id,)
        )
    else:
        row = await _fetchone(
            conn,
            "SELECT stored_games FROM player_totals WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
    return row[0] if row else 0


async def _summaries(conn: Connection, ids: Sequence[int]) -> tuple[GameSummary, ...]:
    """The games of `ids`, in that order, with their seats."""
    if not ids:
        return ()
    marks = ", ".join("?" * len(ids))
    games = await _fetchall(
        conn,
        "SELECT game_id, channel_id, started_at, ended_at, abandoned, has_bots"
        f" FROM game_results WHERE game_id IN ({marks})",
        ids,
    )
    seats = await _fetchall(
        conn,
        "SELECT game_id, seat, user_id, name, is_bot, worms, tiles, rank, won, left_game"
        f" FROM player_results WHERE game_id IN ({marks}) ORDER BY game_id, seat",
        ids,
    )
    seats_of: dict[int, list[SeatLine]] = {game_id: [] for game_id in ids}
    for game_id, seat, user, name, is_bot, worms, tiles, rank, won, left in seats:
        seats_of[game_id].append(
            SeatLine(
                seat=seat,
                user_id=user,
                name=name,
                is_bot=bool(is_bot),
                worms=worms,
                tiles=tuple(int(tile) for tile in tiles.split()),
                rank=rank,
                won=bool(won),
                left=bool(left),
            )
        )
    by_id = {
        game_id: GameSummary(
            game_id=game_id,
            channel_id=channel_id,
            started_at=started_at,
            ended_at=ended_at,
            abandoned=bool(abandoned),
            has_bots=bool(has_bots),
            seats=tuple(seats_of[game_id]),
        )
        for game_id, channel_id, started_at, ended_at, abandoned, has_bots in games
    }
    return tuple(by_id[game_id] for game_id in ids if game_id in by_id)


# ---------------------------------------------------------------------- leaderboard

# Trusted SQL fragments per ranking (never user text): the value ranked on.
_METRIC = {
    Ranking.WINS: "wins",
    Ranking.WIN_RATE: "CAST(wins AS REAL) / games",
    Ranking.AVERAGE_WORMS: "CAST(worms AS REAL) / games",
    Ranking.GAMES: "games",
}


async def leaderboard(
    conn: Connection,
    guild_id: int,
    ranking: Ranking,
    period: Period,
    *,
    asker_id: int,
    now: int | None = None,
    size: int = LEADERBOARD_SIZE,
) -> Leaderboard:
    """The top `size` people of a server, and the asker's own row wherever they rank.

    Equal values share a rank; among them more games come first. Win rate ranks only
    people with WIN_RATE_MIN_GAMES finished games in the period. Periods are whole UTC
    days, today included. For a 7- or 30-day period this may write: it rolls the
    server's window forward to `now` (in a savepoint, so inside or outside a
    transaction alike).
    """
    first_day = period.first_day(int(time.time()) if now is None else now)
    if first_day is None:
        totals = "SELECT user_id, games, wins, worms FROM player_totals WHERE guild_id = ?"
        args: list[Any] = [guild_id]
    else:
        await _roll_window(conn, guild_id, period, first_day)
        totals = (
            "SELECT user_id, games, wins, worms FROM period_totals"
            " WHERE guild_id = ? AND period = ?"
        )
        args = [guild_id, str(period)]
    metric = _METRIC[ranking]
    minimum = WIN_RATE_MIN_GAMES if ranking is Ranking.WIN_RATE else 1
    # One pass over the period's totals (materialized once), read three ways: the top
    # rows (a top-N sort), the asker's row with their rank (a count of better values),
    # and the counts. Ranks inside the top come from its order, in Python.
    rows = await _fetchall(
        conn,
        f"""
        WITH totals AS MATERIALIZED ({totals}),
        ranked AS (
            SELECT user_id, games, wins, worms, {metric} AS value FROM totals WHERE games >= ?
        )
        SELECT * FROM (
            SELECT 0, user_id, games, wins, worms, value FROM ranked
            ORDER BY value DESC, games DESC, user_id LIMIT ?
        )
        UNION ALL
        SELECT 1, me.user_id, me.games, me.wins, me.worms,
            1 + (SELECT count(*) FROM ranked AS better WHERE better.value > me.value)
        FROM ranked AS me WHERE me.user_id = ?
        UNION ALL
        SELECT 2, NULL, (SELECT count(*) FROM ranked),
            (SELECT games FROM totals WHERE user_id = ?), NULL, NULL
        """,
        [*args, minimum, size, asker_id, asker_id],
    )
    top_rows = sorted((row for row in rows if row[0] == 0), key=lambda r: (-r[5], -r[2], r[1]))
    asker_row = next((row for row in rows if row[0] == 1), None)
    (_, _, ranked_players, asker_games, _, _) = next(row for row in rows if row[0] == 2)
    names = await _names(
        conn, guild_id, [row[1] for row in top_rows] + ([asker_id] if asker_row else [])
    )
    top: list[LeaderboardEntry] = []
    for position, (_, user_id, games, wins, worms, value) in enumerate(top_rows):
        shares_rank = position and value == top_rows[position - 1][5]
        rank = top[-1].rank if shares_rank else position + 1
        top.append(LeaderboardEntry(rank, user_id, names[user_id], games, wins, worms))
    asker = None
    if asker_row is not None:
        _, user_id, games, wins, worms, rank = asker_row
        asker = LeaderboardEntry(rank, user_id, names[user_id], games, wins, worms)
    return Leaderboard(ranking, period, tuple(top), asker, ranked_players, asker_games or 0)


async def _roll_window(conn: Connection, guild_id: int, period: Period, first_day: int) -> None:
    """Bring period_totals to the window starting at `first_day`.

    Usually nothing to do, or one day to subtract; built from player_days on first use,
    after a long quiet spell, or if asked for an earlier window than the stored one.
    """
    row = await _fetchone(
        conn,
        "SELECT first_day FROM period_windows WHERE guild_id = ? AND period = ?",
        (guild_id, str(period)),
    )
    if row is not None and row[0] == first_day:
        return
    key = {"guild_id": guild_id, "period": str(period), "first_day": first_day}
    await conn.execute("SAVEPOINT roll_window")
    try:
        if row is None or row[0] > first_day or first_day - row[0] >= (period.days or 0):
            # No window yet, an earlier one asked for, or no day in common: build afresh.
            await conn.execute(_DROP_WINDOW, key)
            await conn.execute(_BUILD_WINDOW, key)
        else:
            await conn.execute(_SUBTRACT_DAYS, {**key, "old_first_day": row[0]})
            await conn.execute(_DROP_EMPTY, key)
        await conn.execute(_SET_WINDOW, key)
    except BaseException:
        await conn.execute("ROLLBACK TO roll_window")
        await conn.execute("RELEASE roll_window")
        raise
    await conn.execute("RELEASE roll_window")


_DROP_WINDOW = "DELETE FROM period_totals WHERE guild_id = :guild_id AND period = :period"

_BUILD_WINDOW = """
INSERT INTO period_totals (guild_id, period, user_id, games, wins, worms)
SELECT guild_id, :period, user_id, sum(games), sum(wins), sum(worms) FROM player_days
WHERE guild_id = :guild_id AND day >= :first_day GROUP BY user_id
"""

_SUBTRACT_DAYS = """
UPDATE period_totals SET games = period_totals.games - gone.games,
    wins = period_totals.wins - gone.wins, worms = period_totals.worms - gone.worms
FROM (
    SELECT user_id, sum(games) AS games, sum(wins) AS wins, sum(worms) AS worms
    FROM player_days
    WHERE guild_id = :guild_id AND day >= :old_first_day AND day < :first_day
    GROUP BY user_id
) AS gone
WHERE period_totals.guild_id = :guild_id AND period_totals.period = :period
    AND period_totals.user_id = gone.user_id
"""

_DROP_EMPTY = (
    "DELETE FROM period_totals WHERE guild_id = :guild_id AND period = :period AND games = 0"
)

_SET_WINDOW = """
INSERT INTO period_windows (guild_id, period, first_day) VALUES (:guild_id, :period, :first_day)
ON CONFLICT (guild_id, period) DO UPDATE SET first_day = excluded.first_day
"""


async def _names(conn: Connection, guild_id: int, user_ids: list[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    marks = ", ".join("?" * len(user_ids))
    rows = await _fetchall(
        conn,
        f"SELECT user_id, name FROM player_totals WHERE guild_id = ? AND user_id IN ({marks})",
        [guild_id, *user_ids],
    )
    return dict(rows)


# ---------------------------------------------------------------------- one player


async def player_stats(conn: Connection, guild_id: int, user_id: int) -> PlayerStats | None:
    """A person's record in a server, or None if they never played there."""
    row = await _fetchone(
        conn,
        "SELECT name, games, wins, worms, best_worms, grill_takes, steals, stolen_from,"
        " failures, turns, current_streak, longest_streak, stored_games"
        " FROM player_totals WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    if row is None:
        return None
    favourite = await _fetchone(
        conn,
        "SELECT tile, taken FROM player_tiles WHERE guild_id = ? AND user_id = ?"
        " ORDER BY taken DESC, tile DESC LIMIT 1",
        (guild_id, user_id),
    )
    name, games, wins, worms, best, grill, steals, stolen, failures, turns, *rest = row
    current_streak, longest_streak, stored_games = rest
    return PlayerStats(
        user_id=user_id,
        name=name,
        games=games,
        wins=wins,
        worms=worms,
        best_worms=best,
        grill_takes=grill,
        steals=steals,
        stolen_from=stolen,
        failures=failures,
        turns=turns,
        current_streak=current_streak,
        longest_streak=longest_streak,
        favourite_tile=favourite[0] if favourite else None,
        favourite_tile_taken=favourite[1] if favourite else 0,
        stored_games=stored_games,
    )


# ---------------------------------------------------------------------- one game


async def game_story(conn: Connection, guild_id: int, game_id: int) -> GameStory | None:
    """One game of this server with its turn outcomes, or None (unknown, or elsewhere)."""
    row = await _fetchone(
        conn,
        "SELECT s.turns FROM game_results AS g JOIN game_stories AS s USING (game_id)"
        " WHERE g.game_id = ? AND g.guild_id = ?",
        (game_id, guild_id),
    )
    if row is None:
        return None
    (summary,) = await _summaries(conn, [game_id])
    turns = tuple(Turn.from_row(turn) for turn in json.loads(row[0]))
    return GameStory(summary, turns)


# ---------------------------------------------------------------------- helpers


async def _fetchall(conn: Connection, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
    async with conn.execute(sql, args) as cursor:
        return [tuple(row) for row in await cursor.fetchall()]


async def _fetchone(conn: Connection, sql: str, args: Sequence[Any]) -> tuple[Any, ...] | None:
    async with conn.execute(sql, args) as cursor:
        row = await cursor.fetchone()
    return None if row is None else tuple(row)
