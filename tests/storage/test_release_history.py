"""A database written by release 0.1 (tests/storage/fixtures/release_0_1.db, made by
make_release_db.py.txt) opens, migrates, and its history reads as it did: the same
games, winners, worms and per-player statistics. The expected values are read from the
old tables before migrating."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.games.pickomino.history import BUSTS, PICKOMINO_HISTORY, STEALS, STOLEN_FROM, TILES, TURNS
from bot.history.models import Period, Ranking
from bot.history.record import SeatInfo
from bot.history.sql import SqlResultStore
from bot.history.text import history_line, standing_lines
from bot.storage import Database, apply_migrations
from tests.history.games import play, result_of

FIXTURE = Path(__file__).parent / "fixtures" / "release_0_1.db"
GUILD = 1
KIND = PICKOMINO_HISTORY.kind
STORE = SqlResultStore()


def name_of(user_id: int, stored: str) -> str:
    return stored


def old_tables(path: Path) -> dict[str, Any]:
    """What release 0.1's history showed, read from its own tables."""
    with sqlite3.connect(path) as old:
        games = old.execute(
            "SELECT game_id, channel_id, ended_at, abandoned FROM game_results"
            " WHERE guild_id = ? ORDER BY ended_at DESC, game_id DESC",
            (GUILD,),
        ).fetchall()
        seats = old.execute(
            "SELECT game_id, seat, user_id, name, worms, tiles, rank, won, left_game"
            " FROM player_results ORDER BY game_id, seat"
        ).fetchall()
        totals = old.execute(
            "SELECT user_id, name, stored_games, games, wins, worms, best_worms, grill_takes,"
            " steals, stolen_from, failures, turns, current_streak, longest_streak"
            " FROM player_totals WHERE guild_id = ?",
            (GUILD,),
        ).fetchall()
        favourites = {
            user: (tile, taken)
            for user, tile, taken in old.execute(
                "SELECT user_id, tile, taken FROM player_tiles WHERE guild_id = ?"
                " ORDER BY user_id, taken, tile",  # the last row per person is the favourite
                (GUILD,),
            )
        }
        stories = dict(old.execute("SELECT game_id, turns FROM game_stories"))
        sessions = old.execute("SELECT count(*) FROM sessions").fetchone()[0]
    return {
        "games": games,
        "seats": seats,
        "totals": totals,
        "favourites": favourites,
        "stories": {game_id: json.loads(turns) for game_id, turns in stories.items()},
        "sessions": sessions,
    }


def old_history_line(game: tuple[Any, ...], seats: list[tuple[Any, ...]]) -> str:
    """Release 0.1's history line (score.json of that release), from its rows, with the
    seats in today's order: the winner first, then by worms, those who left last."""
    game_id, _, ended_at, abandoned = game
    shown = []
    ordered = sorted(seats, key=lambda row: (row[8], not row[7], -row[4]))
    for _, _, _, name, worms, _, _, won, left in ordered:
        if left:
            shown.append(f"~~{name}~~ (left)")
        else:
            shown.append(f"🏆 **{name}** {worms}🪱" if won else f"{name} {worms}🪱")
    line = f"`#{game_id}` <t:{ended_at}:R> · " + " · ".join(shown)
    return line + " · *abandoned*" if abandoned else line


@pytest.fixture
async def upgraded(tmp_path):
    path = tmp_path / "bot.db"
    shutil.copy(FIXTURE, path)
    expected = old_tables(path)
    db = await Database.open(path)
    applied = await apply_migrations(db)
    assert 3 in applied and 1 not in applied and 2 not in applied
    yield db, expected
    await db.close()


async def test_the_release_has_what_the_test_needs():
    expected = old_tables(FIXTURE)
    assert [abandoned for *_, abandoned in expected["games"]] == [1, 0, 0]
    assert {row[0] for row in expected["totals"]} == {101, 102, 103}


async def test_history_pages_show_the_same_games_winners_and_worms(upgraded):
    db, expected = upgraded
    page = await STORE.history_page(db.connection, KIND, GUILD)
    assert page.total == len(expected["games"]) == 3
    assert [(g.game_id, g.channel_id, g.ended_at, g.abandoned) for g in page.games] == [
        (game_id, channel, ended_at, bool(abandoned))
        for game_id, channel, ended_at, abandoned in expected["games"]
    ]
    for game, old in zip(page.games, expected["games"], strict=True):
        seats = [row for row in expected["seats"] if row[0] == game.game_id]
        assert history_line(game, PICKOMINO_HISTORY, name_of) == old_history_line(old, seats)
        assert [
            (s.seat, s.user_id, s.name, s.score, s.end_state["tiles"], s.rank, s.won, s.left)
            for s in game.seats
        ] == [
            (seat, user, name, worms, [int(t) for t in tiles.split()], rank, bool(won), bool(left))
            for _, seat, user, name, worms, tiles, rank, won, left in seats
        ]
    finished = [g for g in page.games if not g.abandoned]
    assert all(sum(s.won for s in g.seats) >= 1 for g in finished)


async def test_each_players_record_and_favourite_tile_are_kept(upgraded):
    db, expected = upgraded
    for row in expected["totals"]:
        user, name, stored, games, wins, worms, best, takes, steals, stolen, fails, turns, *rest = (
            row
        )
        stats = await STORE.player_stats(db.connection, KIND, GUILD, user)
        assert stats is not None
        assert (stats.name, stats.stored_games, stats.games, stats.wins) == (
            name,
            stored,
            games,
            wins,
        )
        assert (stats.score, stats.best_score) == (worms, best)
        assert (stats.current_streak, stats.longest_streak) == tuple(rest)
        figures = {key: stats.figure(key).total for key in (TILES, STEALS, STOLEN_FROM, BUSTS)}
        assert figures == {TILES: takes, STEALS: steals, STOLEN_FROM: stolen, BUSTS: fails}
        assert stats.figure(TURNS).total == turns
        assert (stats.favourite, stats.favourite_taken) == expected["favourites"][user]


async def test_leaderboards_and_stories_read_as_before(upgraded):
    db, expected = upgraded
    people = {row[0]: row for row in expected["totals"] if row[3] > 0}
    board = await STORE.leaderboard(
        db.connection, KIND, GUILD, Ranking.AVERAGE_SCORE, Period.ALL_TIME, asker_id=101
    )
    by_average = sorted(people.values(), key=lambda r: (-r[5] / r[3], -r[3], r[0]))
    assert [(e.user_id, e.games, e.wins, e.score) for e in board.top] == [
        (r[0], r[3], r[4], r[5]) for r in by_average
    ]
    for game_id, rows in expected["stories"].items():
        story = await STORE.game_story(db.connection, KIND, GUILD, game_id)
        assert story is not None and list(story.lines) == rows
        assert standing_lines(story.summary, PICKOMINO_HISTORY, name_of)


async def test_the_upgraded_database_keeps_counting_and_its_sessions(upgraded):
    db, expected = upgraded
    sessions = await db.fetchone("SELECT count(*) FROM sessions")
    assert sessions is not None and sessions[0] == expected["sessions"]
    anne = SeatInfo(101, "Anne", False)
    bob = SeatInfo(102, "Bob", False)
    result = result_of(
        play(random.Random(3), [anne, bob]),
        [anne, bob],
        game_id=1_000,
        ended_at=1_800_000_000,
        guild_id=GUILD,
    )
    async with db.transaction() as connection:
        await STORE.save(connection, result)
    before = {row[0]: row for row in expected["totals"]}
    stats = await STORE.player_stats(db.connection, KIND, GUILD, 101)
    assert stats is not None
    assert stats.games == before[101][3] + 1
    assert stats.score == before[101][5] + result.players[0].score
    page = await STORE.history_page(db.connection, KIND, GUILD)
    assert page.total == 4 and page.games[0].game_id == 1_000
