"""Skill ratings in SQL, on SQLite and PostgreSQL alike (tables of
`migrations/<dialect>/0009_ratings.sql`): the live update at a game's end, the rebuild
from history, the leaderboards (all time, and the last 30 days replayed from history)
and a person's rating with their rank.

Each community's ratings are the replay of its finished games in the order they ended
(ended_at, then game id): the live update applies a game to the stored ratings, and
replays the community instead when the game sorts before the last one applied (two
games ending in the same second), so the live ratings are always the rebuilt ones.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.history.models import DAY, LEADERBOARD_SIZE, Period
from bot.history.ranking import shared_ranks
from bot.history.ratings import (
    RATING_MIN_GAMES,
    Change,
    Player,
    Rating,
    Ratings,
    Seated,
    level_in_name,
    rate,
    rated_seats,
)
from bot.history.record import GameResult
from bot.history.rows import fetch_all, fetch_one, stored_names
from bot.i18n import LOCALES, catalog
from bot.storage.protocols import Connection, Database

__all__ = [
    "PlayerRating",
    "RatingBoard",
    "RatingEntry",
    "Rebuilt",
    "player_rating",
    "rate_result",
    "rating_board",
    "rebuild",
    "rebuild_all",
    "replay_window",
]


@dataclass(frozen=True, slots=True)
class RatingEntry:
    rank: int  # equal ratings (as shown) share a rank: 1, 1, 3
    user_id: int
    name: str
    rating: Rating


@dataclass(frozen=True, slots=True)
class RatingBoard:
    period: Period
    top: tuple[RatingEntry, ...]
    asker: RatingEntry | None  # the asker's own row, when ranked
    ranked_players: int  # people with RATING_MIN_GAMES rated games in the period
    asker_games: int  # the asker's rated games in the period
    computers: tuple[tuple[str, Rating], ...]  # each computer level's rating, by level
    min_games: int = RATING_MIN_GAMES

    @property
    def asker_in_top(self) -> bool:
        return self.asker is not None and any(e.user_id == self.asker.user_id for e in self.top)


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A person's rating in a community, and their rank among the people ranked."""

    rating: Rating
    rank: int | None  # None until they have RATING_MIN_GAMES rated games
    ranked_players: int
    min_games: int = RATING_MIN_GAMES


@dataclass(frozen=True, slots=True)
class Rebuilt:
    communities: int
    games: int  # finished games read
    rated: int  # games that rated someone (the others: fewer than two players stayed...)


# ---------------------------------------------------------------------- the live update

_TOUCH_MARK = """
INSERT INTO rating_marks (game, guild_id, ended_at, game_id, games) VALUES (?, ?, 0, 0, 0)
ON CONFLICT (game, guild_id) DO UPDATE SET games = games
"""
_READ_MARK = "SELECT ended_at, game_id FROM rating_marks WHERE game = ? AND guild_id = ?"
_SET_MARK = (
    "UPDATE rating_marks SET ended_at = ?, game_id = ?, games = games + 1"
    " WHERE game = ? AND guild_id = ?"
)
_UPSERT_RATING = """
INSERT INTO ratings (game, guild_id, user_id, bot_level, mu, sigma, games)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (game, guild_id, user_id, bot_level) DO UPDATE SET
    mu = excluded.mu, sigma = excluded.sigma, games = excluded.games
"""


def seats_of(result: GameResult) -> list[Seated]:
    """A finished game's seats as the ratings read them."""
    return [
        Seated(p.seat, p.user_id, p.is_bot, p.bot_level, p.left, p.rank) for p in result.players
    ]


async def rate_result(connection: Connection, result: GameResult) -> list[Change]:
    """Rate a just-saved finished game (its rows are in history already), in the
    caller's transaction; the changes it made, in seat order (empty: it rates nobody).
    Abandoned and practice games rate nobody."""
    if result.abandoned or result.practice:
        return []
    placed = rated_seats(seats_of(result))
    if not placed:
        return []
    key = (result.game, result.guild_id)
    # Taken first: the community's mark row orders its updates (and waits for a rebuild).
    await connection.execute(_TOUCH_MARK, key)
    mark = await fetch_one(connection, _READ_MARK, key)
    if mark is not None and (result.ended_at, result.game_id) < (mark[0], mark[1]):
        # Ended before a game already rated here: replay the community in order.
        replayed = await _replay_community(connection, result.game, result.guild_id)
        return replayed.get(result.game_id, [])
    current = await _ratings_of(connection, result.game, result.guild_id, [p for p, _, _ in placed])
    changes = rate(current, placed)
    await connection.executemany(
        _UPSERT_RATING,
        [
            (*key, c.player.user_id, c.player.bot_level, c.after.mu, c.after.sigma, c.after.games)
            for c in changes
        ],
    )
    await connection.execute(_SET_MARK, (result.ended_at, result.game_id, *key))
    return changes


async def _ratings_of(
    connection: Connection, game: str, guild_id: int, players: Sequence[Player]
) -> dict[Player, Rating]:
    which = " OR ".join("(user_id = ? AND bot_level = ?)" for _ in players)
    args: list[Any] = [game, guild_id]
    for player in players:
        args += [player.user_id, player.bot_level]
    rows = await fetch_all(
        connection,
        "SELECT user_id, bot_level, mu, sigma, games FROM ratings"
        f" WHERE game = ? AND guild_id = ? AND ({which})",
        args,
    )
    return {Player(u, level): Rating(mu, sigma, games) for u, level, mu, sigma, games in rows}


# ---------------------------------------------------------------------- replays

# A community's finished games with their seats, in the order they ended.
_GAMES_IN_ORDER = """
SELECT g.game_id, g.ended_at, p.seat, p.user_id, p.name, p.is_bot, p.bot_level,
    p.left_game, p.rank
FROM history_games AS g JOIN history_players AS p ON p.game_id = g.game_id
WHERE g.game = ? AND g.guild_id = ? AND g.abandoned = 0 AND g.ended_at >= ?
ORDER BY g.ended_at, g.game_id, p.seat
"""


async def _games_in_order(
    connection: Connection, game: str, guild_id: int, since: int = 0
) -> list[tuple[int, int, list[Seated]]]:
    """(game id, ended_at, seats) of the community's finished games ending at `since` or
    later, in the order they ended."""
    rows = await fetch_all(connection, _GAMES_IN_ORDER, (game, guild_id, since))
    games: list[tuple[int, int, list[Seated]]] = []
    for game_id, ended_at, seat, user_id, name, is_bot, level, left, rank in rows:
        if not games or games[-1][0] != game_id:
            games.append((game_id, ended_at, []))
        if is_bot and not level:
            level = level_in_name(name, _level_labels())
        games[-1][2].append(Seated(seat, user_id, bool(is_bot), level, bool(left), rank))
    return games


@cache
def _level_labels() -> tuple[tuple[str, str], ...]:
    """(level, its word) in every language, longest word first: how a computer player
    stored before levels were is told by its name ("Pip (Hard)")."""
    prefix = "lobby.bot_level."
    labels = {
        (key.removeprefix(prefix), word)
        for locale in LOCALES
        for key, word in catalog(locale).items()
        if key.startswith(prefix)
    }
    return tuple(sorted(labels, key=lambda label: (-len(label[1]), label)))


async def _replay_community(
    connection: Connection,
    game: str,
    guild_id: int,
    played: list[tuple[int, int, list[Seated]]] | None = None,
) -> dict[int, list[Change]]:
    """Rate the community's games (`played`, else read) again from scratch and store
    the result; each rated game's changes by game id."""
    if played is None:
        played = await _games_in_order(connection, game, guild_id)
    ratings = Ratings()
    changes: dict[int, list[Change]] = {}
    last = (0, 0)
    for game_id, ended_at, seats in played:
        changed = ratings.play(seats)
        if changed:
            changes[game_id] = changed
            last = (ended_at, game_id)
    key = (game, guild_id)
    await connection.execute("DELETE FROM ratings WHERE game = ? AND guild_id = ?", key)
    await connection.execute("DELETE FROM rating_marks WHERE game = ? AND guild_id = ?", key)
    if not ratings.games:
        return changes
    await connection.executemany(
        _UPSERT_RATING,
        [
            (*key, player.user_id, player.bot_level, rating.mu, rating.sigma, rating.games)
            for player, rating in sorted(ratings.by_player.items())
        ],
    )
    await connection.execute(
        "INSERT INTO rating_marks (game, guild_id, ended_at, game_id, games)"
        " VALUES (?, ?, ?, ?, ?)",
        (*key, *last, ratings.games),
    )
    return changes


async def rebuild(connection: Connection, *, dialect: str) -> Rebuilt:
    """Every community's ratings again from its stored games, in one transaction (the
    caller's): interrupted, nothing changes; run twice, the same ratings. On
    PostgreSQL the rating tables are locked first, so a game ending meanwhile is rated
    after the rebuild, on the rebuilt ratings."""
    if dialect == "postgres":
        await connection.execute("LOCK TABLE rating_marks, ratings IN EXCLUSIVE MODE")
    await connection.execute("DELETE FROM ratings")
    await connection.execute("DELETE FROM rating_marks")
    # A practice game's kind is `<game>:practice`: never rated.
    communities = await fetch_all(
        connection,
        "SELECT game, guild_id FROM history_guilds WHERE game NOT LIKE '%:%'"
        " ORDER BY game, guild_id",
        (),
    )
    games = rated = 0
    for game, guild_id in communities:
        played = await _games_in_order(connection, game, guild_id)
        games += len(played)
        rated += len(await _replay_community(connection, game, guild_id, played))
    return Rebuilt(len(communities), games, rated)


# The migration that made the rating tables: the start-up that applies it rebuilds them.
RATINGS_MIGRATION = 9


async def rebuild_all(db: Database) -> Rebuilt:
    """`rebuild` in a transaction of its own: `python -m bot ratings rebuild`, and the
    start-up that applied RATINGS_MIGRATION (the games stored before get their ratings)."""
    async with db.transaction() as connection:
        return await rebuild(connection, dialect=db.dialect)


async def replay_window(connection: Connection, game: str, guild_id: int, since: int) -> Ratings:
    """The ratings of the community's games that ended at `since` or later only, from
    scratch (a season), computed from history: nothing is stored."""
    ratings = Ratings()
    for _, _, seats in await _games_in_order(connection, game, guild_id, since):
        ratings.play(seats)
    return ratings


# ---------------------------------------------------------------------- reading


async def rating_board(
    connection: Connection,
    game: str,
    guild_id: int,
    period: Period,
    *,
    asker_id: int,
    now: int | None = None,
    size: int = LEADERBOARD_SIZE,
    min_games: int = RATING_MIN_GAMES,
) -> RatingBoard:
    """The rating ranking of a community's people with `min_games` rated games: all
    time from the stored ratings, a 7- or 30-day period replayed from its games (whole
    UTC days, today included), with each computer level's rating beside it."""
    first_day = period.first_day(int(time.time()) if now is None else now)
    ratings = Ratings()
    if first_day is None:
        rows = await fetch_all(
            connection,
            "SELECT user_id, bot_level, mu, sigma, games FROM ratings"
            " WHERE game = ? AND guild_id = ?",
            (game, guild_id),
        )
        ratings.by_player = {
            Player(u, level): Rating(mu, sigma, n) for u, level, mu, sigma, n in rows
        }
    else:
        ratings = await replay_window(connection, game, guild_id, first_day * DAY)
    ranked = ratings.people(min_games)
    ranks = shared_ranks([rating.shown for _, rating in ranked])
    shown = ranked[:size]
    asker_at = next((i for i, (user_id, _) in enumerate(ranked) if user_id == asker_id), None)
    wanted = [user_id for user_id, _ in shown]
    if asker_at is not None:
        wanted.append(asker_id)
    names = await stored_names(connection, game, guild_id, wanted)
    top = tuple(
        RatingEntry(rank, user_id, names.get(user_id, str(user_id)), rating)
        for rank, (user_id, rating) in zip(ranks, shown, strict=False)
    )
    asker = None
    if asker_at is not None:
        user_id, rating = ranked[asker_at]
        asker = RatingEntry(ranks[asker_at], user_id, names.get(user_id, str(user_id)), rating)
    mine = ratings.by_player.get(Player(asker_id))
    computers = tuple(
        sorted(
            (
                (player.bot_level, rating)
                for player, rating in ratings.by_player.items()
                if not player.is_person
            ),
            key=lambda pair: -pair[1].ordinal,
        )
    )
    return RatingBoard(
        period, top, asker, len(ranked), mine.games if mine else 0, computers, min_games
    )


async def player_rating(
    connection: Connection,
    game: str,
    guild_id: int,
    user_id: int,
    *,
    min_games: int = RATING_MIN_GAMES,
) -> PlayerRating | None:
    """A person's rating in a community, with their rank there; None if unrated."""
    row = await fetch_one(
        connection,
        "SELECT mu, sigma, games FROM ratings"
        " WHERE game = ? AND guild_id = ? AND user_id = ? AND bot_level = ''",
        (game, guild_id, user_id),
    )
    if row is None:
        return None
    rating = Rating(*row)
    # Ranked by the shown rating, as the leaderboard does: a count of the better ones.
    others = await fetch_all(
        connection,
        "SELECT mu, sigma FROM ratings WHERE game = ? AND guild_id = ? AND bot_level = ''"
        " AND games >= ?",
        (game, guild_id, min_games),
    )
    shown = [Rating(mu, sigma).shown for mu, sigma in others]
    rank = None
    if rating.games >= min_games:
        rank = 1 + sum(1 for value in shown if value > rating.shown)
    return PlayerRating(rating, rank, len(shown), min_games)
