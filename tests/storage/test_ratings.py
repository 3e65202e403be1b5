"""Skill ratings in the database (bot.history.rating_sql), on both dialects: rated with
the result in the same transaction, rebuilt from history to the last digit, seasons,
the leaderboard and a person's rank, and the bad cases (a rebuild twice or broken off,
a game whose players all left, games ending out of order)."""

from __future__ import annotations

import random

import pytest

from bot.history.models import DAY, Period
from bot.history.ratings import RATING_MIN_GAMES, Player, Rating
from bot.history.record import GameResult, PlayerResult
from bot.history.sql import SqlResultStore
from bot.storage.protocols import Database

STORE = SqlResultStore()
KIND = "pickomino"
GUILD = 1_000
NOW = 1_750_000_000 + 12 * 3600

ANNE, BRIDGET, THOMAS, CARL, DORA, EMIL = 101, 102, 103, 104, 105, 106


def game(
    game_id: int,
    ended_at: int,
    places: list[tuple[int, int | None]],
    *,
    left: frozenset[int] = frozenset(),
    bots: dict[int, str | None] | None = None,
    abandoned: bool = False,
    practice: bool = False,
    guild_id: int = GUILD,
) -> GameResult:
    """A finished game: (user id, place) in seat order; `bots` maps a seat's negative
    id to its level (None: stored before levels, told by its name)."""
    bots = bots or {}
    players = []
    for seat, (user_id, rank) in enumerate(places):
        is_bot = user_id in bots
        level = bots.get(user_id)
        players.append(
            PlayerResult(
                seat=seat,
                user_id=user_id,
                name=f"Pip ({(level or 'hard').title()})" if is_bot else f"P{user_id}",
                is_bot=is_bot,
                left=user_id in left,
                score=10 - (rank or 9),
                rank=None if user_id in left else rank,
                won=rank == 1,
                bot_level=level,
            )
        )
    return GameResult(
        game=KIND,
        game_id=game_id,
        guild_id=guild_id,
        channel_id=guild_id + 1,
        started_at=ended_at - 600,
        ended_at=ended_at,
        abandoned=abandoned,
        options={},
        players=players,
        practice=practice,
    )


async def save(db: Database, result: GameResult):
    async with db.transaction() as conn:
        return await STORE.save(conn, result)


async def stored(db: Database) -> list[tuple]:
    rows = await db.fetchall(
        "SELECT game, guild_id, user_id, bot_level, mu, sigma, games FROM ratings"
        " ORDER BY game, guild_id, user_id, bot_level"
    )
    return [tuple(row) for row in rows]


async def rebuild(db: Database):
    async with db.transaction() as conn:
        return await STORE.rebuild_ratings(conn, dialect=db.dialect)


def season(count: int, seed: int = 7) -> list[GameResult]:
    """`count` games among six people and computer players, over 60 days, with ties,
    leavers, abandoned games and two games ending in the same second."""
    rng = random.Random(seed)
    people = [ANNE, BRIDGET, THOMAS, CARL, DORA, EMIL]
    results = []
    for index in range(count):
        seats = rng.sample(people, rng.randint(1, 3)) + [-1, -2][: rng.randint(1, 2)]
        rng.shuffle(seats)
        bots = {-1: "hard", -2: "easy"}
        places = list(range(1, len(seats) + 1))
        rng.shuffle(places)
        if rng.random() < 0.2:  # a tie
            places = [min(p, 2) for p in places]
        left = frozenset([seats[0]]) if rng.random() < 0.1 and seats[0] > 0 else frozenset()
        ended_at = NOW - 60 * DAY + index * (60 * DAY // count)
        results.append(
            game(
                index + 1,
                ended_at,
                list(zip(seats, places, strict=True)),
                left=left,
                bots={seat: bots[seat] for seat in seats if seat < 0},
                abandoned=rng.random() < 0.05,
            )
        )
    return results


async def test_a_game_is_rated_with_its_result(database: Database) -> None:
    changes = await save(database, game(1, NOW, [(ANNE, 1), (BRIDGET, 2), (THOMAS, 3)]))
    assert [c.player.user_id for c in changes] == [ANNE, BRIDGET, THOMAS]
    anne, bridget, thomas = (c.after for c in changes)
    assert anne.mu > Rating().mu > thomas.mu and anne.mu > bridget.mu > thomas.mu
    assert all(c.before == Rating() and c.after.games == 1 for c in changes)
    rows = await stored(database)
    assert [(r[2], r[4], r[5], r[6]) for r in rows] == [
        (c.player.user_id, c.after.mu, c.after.sigma, 1) for c in changes
    ]


async def test_ties_share_a_place_and_a_leaver_is_last(database: Database) -> None:
    changes = await save(
        database,
        game(1, NOW, [(ANNE, 2), (BRIDGET, 1), (THOMAS, 2), (CARL, None)], left=frozenset([CARL])),
    )
    by = {c.player.user_id: c.after for c in changes}
    assert by[ANNE] == by[THOMAS]  # the same place, the same start: the same rating
    assert by[BRIDGET].mu > by[ANNE].mu > by[CARL].mu


async def test_abandoned_practice_and_all_left_rate_nobody(database: Database) -> None:
    assert await save(database, game(1, NOW, [(ANNE, 1), (BRIDGET, 2)], abandoned=True)) == []
    assert (
        await save(database, game(2, NOW, [(ANNE, 1), (-1, 2)], bots={-1: "easy"}, practice=True))
        == []
    )
    everyone_left = frozenset([ANNE, BRIDGET])
    assert await save(database, game(3, NOW, [(ANNE, 1), (BRIDGET, 2)], left=everyone_left)) == []
    assert await save(database, game(4, NOW, [(ANNE, 1)])) == []  # alone: nobody to beat
    assert await stored(database) == []


async def test_computer_players_are_rated_by_level(database: Database) -> None:
    # Two Hard players at one table are one rated player: the first seat counts.
    result = game(
        1, NOW, [(-1, 1), (ANNE, 2), (-2, 3), (-3, 4)], bots={-1: "hard", -2: "easy", -3: "hard"}
    )
    changes = await save(database, result)
    assert [c.player for c in changes] == [Player(0, "hard"), Player(ANNE), Player(0, "easy")]
    levels = {(r[2], r[3]) for r in await stored(database)}
    assert levels == {(0, "hard"), (0, "easy"), (ANNE, "")}


async def test_rebuild_gives_the_live_ratings_to_the_last_digit(database: Database) -> None:
    games = season(120)
    # Two games ending in the same second, saved against their order (the higher id
    # first): the live update replays the community, as the rebuild's order says.
    games[50].ended_at = games[51].ended_at
    for result in [*games[:50], games[51], games[50], *games[52:]]:
        await save(database, result)
    live = await stored(database)
    assert len(live) == 8  # six people, two levels
    report = await rebuild(database)
    assert (report.communities, report.games) == (1, sum(not g.abandoned for g in games))
    assert await stored(database) == live  # floats compared exactly
    await rebuild(database)  # twice: the same
    assert await stored(database) == live


async def test_a_rebuild_broken_off_changes_nothing(database: Database) -> None:
    for result in season(30):
        await save(database, result)
    before = await stored(database)
    with pytest.raises(RuntimeError):
        async with database.transaction() as conn:
            await STORE.rebuild_ratings(conn, dialect=database.dialect)
            await conn.execute("DELETE FROM ratings")
            raise RuntimeError("killed halfway")
    assert await stored(database) == before


async def test_rebuild_reads_the_level_of_old_computer_players_from_their_name(
    database: Database,
) -> None:
    await save(database, game(1, NOW, [(ANNE, 1), (-1, 2), (BRIDGET, 3)], bots={-1: None}))
    # Its level unknown, the computer player is left out; the people are rated.
    assert {(r[2], r[3]) for r in await stored(database)} == {(ANNE, ""), (BRIDGET, "")}
    async with database.transaction() as conn:
        await conn.execute("UPDATE history_players SET name = 'Pip (Schwer)' WHERE user_id = -1")
    await rebuild(database)
    assert {(r[2], r[3]) for r in await stored(database)} == {
        (ANNE, ""),
        (BRIDGET, ""),
        (0, "hard"),
    }


async def test_leaderboards_all_time_and_30_days(database: Database) -> None:
    # Anne beats Bridget in old games; in the last 30 days Bridget beats Anne.
    for index in range(8):
        await save(database, game(index + 1, NOW - 50 * DAY + index, [(ANNE, 1), (BRIDGET, 2)]))
    for index in range(6):
        ended = NOW - 5 * DAY + index
        await save(
            database,
            game(index + 20, ended, [(BRIDGET, 1), (ANNE, 2), (-1, 3)], bots={-1: "normal"}),
        )
    await save(database, game(40, NOW, [(CARL, 1), (ANNE, 2)]))  # Carl: one game only
    async with database.transaction() as conn:
        ever = await STORE.rating_board(conn, KIND, GUILD, Period.ALL_TIME, asker_id=CARL, now=NOW)
        month = await STORE.rating_board(conn, KIND, GUILD, Period.DAYS_30, asker_id=ANNE, now=NOW)
        card = await STORE.player_rating(conn, KIND, GUILD, ANNE)
        newcomer = await STORE.player_rating(conn, KIND, GUILD, CARL)
        nobody = await STORE.player_rating(conn, KIND, GUILD, DORA)
    assert [e.user_id for e in ever.top] == [ANNE, BRIDGET]
    assert ever.asker is None and ever.asker_games == 1 and ever.ranked_players == 2
    assert [e.user_id for e in month.top] == [BRIDGET, ANNE]
    assert month.asker is not None and month.asker.rank == 2 and month.asker_games == 7
    assert [level for level, _ in month.computers] == ["normal"]
    assert month.top[0].rating.games == 6  # the window's games only, from scratch
    assert card is not None and card.rank == 1 and card.ranked_players == 2
    assert card.rating.games == 15
    assert newcomer is not None and newcomer.rank is None and newcomer.rating.games == 1
    assert nobody is None
    assert RATING_MIN_GAMES == 5
