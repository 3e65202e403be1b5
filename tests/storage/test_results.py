"""bot.history.sql (SqlResultStore): saving engine-played Pickomino games, and
every query against an oracle computed in Python from the same results."""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections import Counter

import aiosqlite
import pytest

from bot.games.pickomino.engine import worms
from bot.games.pickomino.history import BUSTS, PICKOMINO_HISTORY, STEALS, STOLEN_FROM, Turn
from bot.history.models import (
    DAY,
    WIN_RATE_MIN_GAMES,
    Cursor,
    Period,
    PlayerStats,
    Ranking,
    Variants,
)
from bot.history.record import EndedGame, GameResult, SeatInfo
from bot.history.sql import SqlResultStore
from bot.history.text import (
    history_line,
    leaderboard_asker_line,
    leaderboard_empty,
    leaderboard_lines,
    player_fields,
)
from bot.storage import Database, apply_migrations
from bot.storage.migrate import discover, migrations_dir
from tests.history.games import (
    ANNE,
    BRIDGET,
    CARL,
    GUILD,
    ROBOT,
    THOMAS,
    play,
    result_of,
)
from tests.history.race import RACE, race

NOW = 1_750_000_000 + 12 * 3600  # noon UTC
PEOPLE = (ANNE, BRIDGET, THOMAS, CARL)
STORE = SqlResultStore()
KIND = PICKOMINO_HISTORY.kind


# The store's calls for Pickomino's rows, as these tests read them.
async def save_result(conn, result: GameResult) -> None:
    await STORE.save(conn, result)


async def history_page(conn, guild_id: int | None, **kwargs):
    return await STORE.history_page(conn, KIND, guild_id, **kwargs)


async def leaderboard(conn, guild_id: int, ranking: Ranking, period: Period, **kwargs):
    return await STORE.leaderboard(
        conn, KIND, guild_id, ranking, period, variant="extrawurm", **kwargs
    )


async def player_stats(conn, guild_id: int | None, user_id: int):
    return await STORE.player_stats(conn, KIND, guild_id, user_id)


async def game_story(conn, guild_id: int, game_id: int):
    return await STORE.game_story(conn, KIND, guild_id, game_id)


def season() -> list[GameResult]:
    """60 days of games in GUILD: the regulars, a newcomer with 3 games, games against a
    computer player, abandoned games, and a player leaving mid-game."""
    rng = random.Random(2024)
    results: list[GameResult] = []

    def add(seats: list[SeatInfo], days_ago: float, **kwargs) -> None:
        played = None if kwargs.pop("lobby", False) else play(rng, seats, **kwargs)
        ended_at = NOW - int(days_ago * DAY)
        results.append(
            result_of(
                played,
                seats,
                game_id=len(results) + 1,
                ended_at=ended_at,
                abandoned=played is None,
            )
        )

    regulars = [ANNE, BRIDGET, THOMAS]
    for index in range(30):
        add(regulars, 60 - 2 * index + 0.1)
    for days_ago in (45.3, 25.3, 6.3, 4.3):  # with Extrawurm: higher scores, kept apart
        add(regulars, days_ago, extrawurm=True)
    add(regulars, 3.3, extrawurm=True, leave_at_turn={BRIDGET.user_id: 4})
    for days_ago in (20, 5, 1):
        add([CARL, ANNE], days_ago)
    add([ANNE, ROBOT], 3)
    add([BRIDGET, ROBOT, THOMAS], 2)
    add([ANNE, BRIDGET], 0.5, leave_at_turn={BRIDGET.user_id: 8})  # abandoned mid-game
    add([THOMAS, CARL], 0.4, lobby=True)  # abandoned in the lobby
    add([ANNE, BRIDGET, THOMAS], 0.2, leave_at_turn={THOMAS.user_id: 6})
    return sorted(results, key=lambda r: r.ended_at)


@pytest.fixture(scope="module")
def games() -> list[GameResult]:
    return season()


@pytest.fixture
async def db(tmp_path):
    database = await Database.open(tmp_path / "bot.db")
    await apply_migrations(database)
    yield database
    await database.close()


@pytest.fixture
async def conn(db, games):
    async with db.transaction() as connection:
        for result in games:
            await save_result(connection, result)
    return db.connection


# ---------------------------------------------------------------------- saving


async def test_the_migrations_stand_alone_and_saving_twice_counts_once(tmp_path, games):
    async with aiosqlite.connect(tmp_path / "alone.db") as conn:
        await conn.execute("PRAGMA journal_mode=WAL")
        for migration in discover(migrations_dir("sqlite")):
            await conn.executescript(migration.path.read_text())
        for result in games[:5] + games[:5]:
            await save_result(conn, result)
        await conn.commit()
        page = await history_page(conn, GUILD)
        assert page.total == 5 and len(page.games) == 5
        stats = await player_stats(conn, GUILD, ANNE.user_id)
        assert stats is not None and stats.stored_games == 5


async def test_save_result_does_not_commit(db, games):
    await db.connection.execute("BEGIN")
    await save_result(db.connection, games[0])
    await db.connection.execute("ROLLBACK")
    assert (await history_page(db.connection, GUILD)).total == 0


# ---------------------------------------------------------------------- history


async def test_history_pages_newest_first_over_every_game(conn, games):
    newest_first = sorted(games, key=lambda r: (r.ended_at, r.game_id), reverse=True)
    seen, cursor = [], None
    page = await history_page(conn, GUILD)
    assert not page.has_newer
    while True:
        seen += [game.game_id for game in page.games]
        assert page.total == len(games)
        if not page.has_older:
            break
        cursor = page.games[-1].cursor
        page = await history_page(conn, GUILD, before=cursor)
        assert page.has_newer
    assert seen == [r.game_id for r in newest_first]
    assert len(page.games) == len(games) % 10 or 10


async def test_previous_returns_the_page_before(conn):
    first = await history_page(conn, GUILD)
    second = await history_page(conn, GUILD, before=first.games[-1].cursor)
    third = await history_page(conn, GUILD, before=second.games[-1].cursor)
    back = await history_page(conn, GUILD, after=third.games[0].cursor)
    assert back.games == second.games and back.has_newer and back.has_older
    back = await history_page(conn, GUILD, after=second.games[0].cursor)
    assert back.games == first.games and not back.has_newer


@pytest.mark.parametrize(("count", "pages"), [(1, 1), (9, 1), (10, 1), (11, 2), (20, 2)])
async def test_paging_edges(db, games, count, pages):
    async with db.transaction() as connection:
        for result in games[:count]:
            await save_result(connection, result)
    page = await history_page(db.connection, GUILD)
    sizes = [len(page.games)]
    while page.has_older:
        page = await history_page(db.connection, GUILD, before=page.games[-1].cursor)
        sizes.append(len(page.games))
    assert len(sizes) == pages and sum(sizes) == count and all(0 < s <= 10 for s in sizes)
    assert not page.has_older


async def test_an_empty_server_has_no_history(conn):
    page = await history_page(conn, GUILD + 1)
    assert page.games == () and page.total == 0 and not page.has_older


async def test_one_players_history_has_their_games_only(conn, games):
    carl = [r for r in games if any(p.user_id == CARL.user_id for p in r.players)]
    page = await history_page(conn, GUILD, user_id=CARL.user_id)
    assert page.total == len(carl) == 4  # 3 finished, 1 abandoned in the lobby
    assert [g.game_id for g in page.games] == [r.game_id for r in reversed(carl)]
    assert page.games[0].abandoned
    ten = await history_page(conn, GUILD, user_id=ANNE.user_id)
    rest = await history_page(conn, GUILD, user_id=ANNE.user_id, before=ten.games[-1].cursor)
    assert len(ten.games) == 10 and ten.has_older and rest.has_newer
    assert all(any(s.user_id == ANNE.user_id for s in g.seats) for g in ten.games + rest.games)


async def test_history_lines_carry_seats_names_and_the_left_player(conn, games):
    last = games[-1]  # Thomas left it
    (summary,) = (await history_page(conn, GUILD, size=1)).games
    assert summary.game_id == last.game_id and not summary.abandoned
    thomas = summary.seats[2]
    assert thomas.name == "Thomas" and thomas.left and thomas.rank is None
    assert [s.won for s in summary.seats] == [p.won for p in last.players]
    assert sum(s.won for s in summary.seats) >= 1


# ---------------------------------------------------------------------- leaderboards


def expected_board(
    games: list[GameResult],
    ranking: Ranking,
    period: Period,
    asker: int,
    now: int = NOW,
    variants: Variants = Variants.ALL,
):
    """The board computed in Python: finished games of people who stayed to the end,
    only values above zero ranked, equal values sharing a rank (1, 1, 3), listed among
    themselves by the better record."""
    first_day = period.first_day(now)
    totals: dict[int, Counter] = {}
    for result in games:
        if result.abandoned or (first_day is not None and result.ended_at // DAY < first_day):
            continue
        if variants is not Variants.ALL and (result.variant is None) == (variants is Variants.ONLY):
            continue
        for player in result.players:
            if player.is_bot or player.left:
                continue
            row = totals.setdefault(player.user_id, Counter())
            row.update(games=1, wins=int(player.won), worms=player.score)

    def metric(row: Counter) -> float:
        return {
            Ranking.WINS: row["wins"],
            Ranking.WIN_RATE: row["wins"] / row["games"],
            Ranking.AVERAGE_SCORE: row["worms"] / row["games"],
            Ranking.GAMES: row["games"],
        }[ranking]

    def tie(row: Counter) -> int:
        return {
            Ranking.WINS: row["games"],
            Ranking.WIN_RATE: -row["games"],
            Ranking.AVERAGE_SCORE: -row["games"],
            Ranking.GAMES: -row["wins"],
        }[ranking]

    minimum = WIN_RATE_MIN_GAMES if ranking is Ranking.WIN_RATE else 1
    ranked = {u: row for u, row in totals.items() if row["games"] >= minimum and metric(row) > 0}
    order = sorted(ranked, key=lambda u: (-metric(ranked[u]), tie(ranked[u]), u))
    rank = {u: 1 + sum(metric(r) > metric(ranked[u]) for r in ranked.values()) for u in ranked}
    top = [(rank[u], u, ranked[u]["games"], ranked[u]["wins"], ranked[u]["worms"]) for u in order]
    mine = next((row for row in top if row[1] == asker), None)
    return top[:10], mine, totals.get(asker, Counter())["games"]


@pytest.mark.parametrize("variants", list(Variants))
@pytest.mark.parametrize("period", list(Period))
@pytest.mark.parametrize("ranking", list(Ranking))
async def test_each_leaderboard_matches_the_oracle(conn, games, ranking, period, variants):
    for asker in (CARL.user_id, ANNE.user_id):
        board = await leaderboard(
            conn, GUILD, ranking, period, asker_id=asker, now=NOW, variants=variants
        )
        top, mine, asker_games = expected_board(games, ranking, period, asker, NOW, variants)
        assert [(e.rank, e.user_id, e.games, e.wins, e.score) for e in board.top] == top
        got = board.asker
        assert (got and (got.rank, got.user_id, got.games, got.wins, got.score)) == mine
        assert board.asker_games == asker_games
        assert ROBOT.user_id not in [e.user_id for e in board.top]


@pytest.mark.parametrize("period", list(Period))
async def test_leaderboards_match_the_oracle_on_both_dialects(database, games, period):
    # The 7- and 30-day windows are built in SQL (history_periods from history_days) and
    # the rates are computed there: PostgreSQL must read them as SQLite does.
    async with database.transaction() as connection:
        for result in games:
            await STORE.save(connection, result)
    for ranking, variants in itertools.product(Ranking, Variants):
        async with database.transaction() as connection:
            board = await leaderboard(
                connection, GUILD, ranking, period, asker_id=ANNE.user_id, now=NOW,
                variants=variants,
            )  # fmt: skip
        top, mine, asker_games = expected_board(games, ranking, period, ANNE.user_id, NOW, variants)
        assert [(e.rank, e.user_id, e.games, e.wins, e.score) for e in board.top] == top
        got = board.asker
        assert (got and (got.rank, got.user_id, got.games, got.wins, got.score)) == mine
        assert board.asker_games == asker_games


async def test_win_rate_needs_five_games_in_the_period(conn):
    carl_games = {Period.ALL_TIME: 3, Period.DAYS_30: 3, Period.DAYS_7: 2}
    for period, played in carl_games.items():
        board = await leaderboard(
            conn, GUILD, Ranking.WIN_RATE, period, asker_id=CARL.user_id, now=NOW
        )
        assert board.asker is None and board.asker_games == played
        assert board.top and all(entry.games >= WIN_RATE_MIN_GAMES for entry in board.top)
        games = await leaderboard(
            conn, GUILD, Ranking.GAMES, period, asker_id=CARL.user_id, now=NOW
        )
        assert games.asker is not None and games.asker.games == played


async def test_periods_are_whole_utc_days(conn):
    week = await leaderboard(
        conn, GUILD, Ranking.GAMES, Period.DAYS_7, asker_id=ANNE.user_id, now=NOW
    )
    later = await leaderboard(
        conn, GUILD, Ranking.GAMES, Period.DAYS_7, asker_id=ANNE.user_id, now=NOW + 8 * DAY
    )
    assert week.top and later.top == ()


async def test_the_askers_rank_is_given_when_outside_the_top(db):
    rng = random.Random(4)
    seats = [SeatInfo(5000 + index, f"P{index}", False) for index in range(14)]
    async with db.transaction() as connection:
        for index in range(0, 14, 2):
            pair = seats[index : index + 2]
            for game in range(index + 1):  # later pairs play more games
                played = play(rng, pair)
                game_id = index * 100 + game + 1
                result = result_of(played, pair, game_id=game_id, ended_at=NOW - game)
                await save_result(connection, result)
    board = await leaderboard(
        db.connection, GUILD, Ranking.GAMES, Period.ALL_TIME, asker_id=5000, now=NOW
    )
    assert len(board.top) == 10 and board.ranked_players == 14
    assert board.asker is not None and board.asker.rank == 13 and not board.asker_in_top


# ---------------------------------------------------------------------- one player


async def test_player_stats_add_up_their_finished_games(conn, games):
    for person in PEOPLE:
        stats = await player_stats(conn, GUILD, person.user_id)
        check_stats(stats, games, person)


def check_stats(stats: PlayerStats | None, games: list[GameResult], person: SeatInfo) -> None:
    """`stats` are `person`'s record over `games`, counted again in Python."""
    assert stats is not None
    mine = [
        (result, player)
        for result in games
        for player in result.players
        if player.user_id == person.user_id
    ]
    finished = [(r, p) for r, p in mine if not r.abandoned]
    # A game left before its end is counted apart, not as a game played (nor lost).
    played = [(r, p) for r, p in finished if not p.left]
    assert stats.stored_games == len(mine)
    assert stats.games == len(played)
    assert stats.left_games == len(finished) - len(played)
    assert stats.wins == sum(p.won for _, p in played)
    assert stats.score == sum(p.score for _, p in played)
    assert stats.best_score == max(p.score for _, p in played)
    assert stats.figure(STEALS).total == sum(p.details[STEALS] for _, p in finished)
    assert stats.figure(STOLEN_FROM).total == sum(p.details[STOLEN_FROM] for _, p in finished)
    assert stats.figure(BUSTS).total == sum(p.details[BUSTS] for _, p in finished)
    assert stats.figure(BUSTS).best == max(p.details[BUSTS] for _, p in finished)
    current, longest = _streaks([p.won for _, p in finished])  # leaving ends a streak
    assert (stats.current_streak, stats.longest_streak) == (current, longest)
    taken = Counter(
        turn.tile
        for result, player in finished
        for turn in result.story
        if turn.seat == player.seat and turn.outcome in ("took", "stole")
    )
    favourite = max(taken.items(), key=lambda item: (item[1], item[0]))
    assert (stats.favourite, stats.favourite_taken) == favourite


async def test_streaks_follow_the_order_games_end_in(db):
    wins = [True, True, False, True, True, True, False, True]
    async with db.transaction() as connection:
        for index, won in enumerate(wins):
            winner, loser = (ANNE, BRIDGET) if won else (BRIDGET, ANNE)
            result = _two_player_result(index + 1, winner, loser)
            await save_result(connection, result)
    stats = await player_stats(db.connection, GUILD, ANNE.user_id)
    assert stats is not None and (stats.current_streak, stats.longest_streak) == (1, 3)


# A group DM (its community is its channel) where Anne and Bridget play too.
CHAT = 5_000


def chat_games(first_id: int) -> list[GameResult]:
    """Games in CHAT among Anne, Bridget and a computer player, ending between the
    server's; one abandoned."""
    rng = random.Random(77)
    seats = [ANNE, BRIDGET, ROBOT]
    results = [
        result_of(
            play(rng, seats), seats, game_id=first_id + index,
            ended_at=NOW - int((41 - 3 * index) * DAY), guild_id=CHAT,
        )
        for index in range(12)
    ]  # fmt: skip
    results.append(result_of(None, seats, game_id=first_id + 12, ended_at=NOW - DAY, guild_id=CHAT))
    return results


async def test_a_persons_record_everywhere_adds_up_every_community(database, games):
    """guild_id None: sums of counters, maxima of bests, the streaks and the favourite
    counted over the games of both communities, on both dialects."""
    chat = chat_games(first_id=len(games) + 1)
    everything = sorted(games + chat, key=lambda r: r.ended_at)
    async with database.transaction() as connection:
        for result in everything:
            await STORE.save(connection, result)
    async with database.transaction() as connection:
        for person in PEOPLE:
            check_stats(await player_stats(connection, None, person.user_id), everything, person)
        check_stats(await player_stats(connection, CHAT, ANNE.user_id), chat, ANNE)
        everywhere = await STORE.player_stats(
            connection, KIND, None, ANNE.user_id, variant="extrawurm"
        )
        in_guild = await STORE.player_stats(
            connection, KIND, GUILD, ANNE.user_id, variant="extrawurm"
        )
        assert await player_stats(connection, None, ROBOT.user_id) is None
        assert await player_stats(connection, None, 4242) is None
    assert everywhere is not None and in_guild is not None
    assert everywhere.variant_games == in_guild.variant_games > 0  # none in the chat
    assert everywhere.name == "Anne"


async def test_a_persons_history_everywhere_pages_every_community(database, games):
    chat = chat_games(first_id=len(games) + 1)
    async with database.transaction() as connection:
        for result in games + chat:
            await STORE.save(connection, result)
    mine = sorted(
        (
            (r.ended_at, r.game_id)
            for r in games + chat
            if any(p.user_id == ANNE.user_id for p in r.players)
        ),
        reverse=True,
    )
    seen: list[tuple[int, int]] = []
    before = None
    async with database.transaction() as connection:
        while True:
            page = await history_page(connection, None, user_id=ANNE.user_id, before=before)
            assert page.total == len(mine)
            seen += [(g.ended_at, g.game_id) for g in page.games]
            if not page.has_older:
                break
            before = page.games[-1].cursor
        back = await history_page(connection, None, user_id=ANNE.user_id, after=before)
        chat_only = await history_page(connection, CHAT, user_id=ANNE.user_id)
        # From the chat, a game of the server opens for a person who played in it only.
        theirs = next(
            r
            for r in games
            if {p.user_id for p in r.players} == {BRIDGET.user_id, THOMAS.user_id, ROBOT.user_id}
        )
        told = await STORE.game_story(
            connection, KIND, CHAT, theirs.game_id, player_id=THOMAS.user_id
        )
        refused = await STORE.game_story(
            connection, KIND, CHAT, theirs.game_id, player_id=ANNE.user_id
        )
        in_chat = await STORE.game_story(
            connection, KIND, CHAT, chat[0].game_id, player_id=CARL.user_id
        )
        with pytest.raises(ValueError):
            await history_page(connection, None)
    assert seen == mine
    assert before is not None
    at = mine.index((before.ended_at, before.game_id))
    assert back.has_newer and [g.game_id for g in back.games] == [i for _, i in mine[at - 10 : at]]
    assert {g.game_id for g in chat_only.games} <= {r.game_id for r in chat}
    assert chat_only.total == len(chat)
    assert told is not None and told.summary.game_id == theirs.game_id
    assert refused is None
    assert in_chat is not None  # the chat's own games open for anyone there


async def test_a_winning_streak_goes_on_from_one_community_to_another(db):
    # Anne wins in the server and the chat by turns: at most 3 in a row in either, 4 in all.
    outcomes = [(GUILD, True), (CHAT, True), (GUILD, False), (CHAT, True), (GUILD, True),
                (CHAT, True), (GUILD, True), (CHAT, False), (GUILD, True)]  # fmt: skip
    async with db.transaction() as connection:
        for index, (community, won) in enumerate(outcomes):
            winner, loser = (ANNE, BRIDGET) if won else (BRIDGET, ANNE)
            result = _two_player_result(index + 1, winner, loser, guild_id=community)
            await save_result(connection, result)
    in_guild = await player_stats(db.connection, GUILD, ANNE.user_id)
    in_chat = await player_stats(db.connection, CHAT, ANNE.user_id)
    everywhere = await player_stats(db.connection, None, ANNE.user_id)
    assert in_guild is not None and in_chat is not None and everywhere is not None
    assert (in_guild.current_streak, in_guild.longest_streak) == (3, 3)
    assert (in_chat.current_streak, in_chat.longest_streak) == (0, 3)
    assert (everywhere.current_streak, everywhere.longest_streak) == (1, 4)
    assert everywhere.games == 9 and everywhere.wins == 7


async def test_computer_players_and_strangers_have_no_stats(conn):
    assert await player_stats(conn, GUILD, ROBOT.user_id) is None
    assert await player_stats(conn, GUILD, 4242) is None
    assert await player_stats(conn, GUILD + 1, ANNE.user_id) is None


# ---------------------------------------------------------------------- one game


async def test_a_games_story_comes_back_in_order(conn, games):
    result = games[-1]
    story = await game_story(conn, GUILD, result.game_id)
    assert story is not None
    assert [Turn.from_row(row) for row in story.lines] == result.story
    assert [s.user_id for s in story.summary.seats] == [p.user_id for p in result.players]
    assert await game_story(conn, GUILD + 1, result.game_id) is None  # another server's
    assert await game_story(conn, GUILD, 99_999) is None


# ---------------------------------------------------------------------- indexes


async def test_no_query_scans_a_results_table(conn):
    statements: list[str] = []
    await conn.set_trace_callback(statements.append)
    first = await history_page(conn, GUILD)
    await history_page(conn, GUILD, before=first.games[-1].cursor)
    await history_page(conn, GUILD, after=first.games[-1].cursor)
    await history_page(conn, GUILD, user_id=ANNE.user_id, before=Cursor(NOW, 10))
    for ranking in Ranking:
        for period in Period:
            await leaderboard(conn, GUILD, ranking, period, asker_id=ANNE.user_id, now=NOW)
    await player_stats(conn, GUILD, ANNE.user_id)
    await player_stats(conn, None, ANNE.user_id)
    await history_page(conn, None, user_id=ANNE.user_id, before=Cursor(NOW, 10))
    await game_story(conn, GUILD, 3)
    await STORE.game_story(conn, KIND, GUILD + 1, 3, player_id=ANNE.user_id)
    await conn.set_trace_callback(None)

    tables = (
        "history_games",
        "history_players",
        "history_days",
        "history_totals",
        "history_items",
        "history_figures",
        "history_periods",
    )
    assert len(statements) > 20
    for sql in statements:
        async with conn.execute(f"EXPLAIN QUERY PLAN {sql}") as cursor:
            plan = [row[3] for row in await cursor.fetchall()]
        scans = [step for step in plan if step.startswith("SCAN") and step.split()[1] in tables]
        assert not scans, (sql, plan)


# ---------------------------------------------------------------------- helpers


def _streaks(wins: list[bool]) -> tuple[int, int]:
    current = longest = 0
    for won in wins:
        current = current + 1 if won else 0
        longest = max(longest, current)
    return current, longest


def _two_player_result(
    game_id: int,
    winner: SeatInfo,
    loser: SeatInfo,
    *,
    options: dict | None = None,
    left: bool = False,
    guild_id: int = GUILD,
) -> GameResult:
    """A short game with a known winner: the winner takes 21, the grill ends by failures
    (not a legal engine game; built by hand to control the winner). `left`: the loser
    left the game before its end."""
    events: list[dict] = [
        {"type": "took", "player": str(winner.user_id), "tile": 21, "total": 21},
    ]
    if left:
        events.append({"type": "left", "player": str(loser.user_id)})
    events.append(
        {
            "type": "game_over",
            "standings": [
                {"rank": 1, "player": str(winner.user_id), "worms": 1, "tiles": [21]},
                {"rank": 2, "player": str(loser.user_id), "worms": 0, "tiles": []},
            ],
            "abandoned": False,
            "tie_break": "",
        }
    )
    return PICKOMINO_HISTORY.build_result(
        EndedGame(
            game_id=game_id,
            guild_id=guild_id,
            channel_id=1,
            started_at=NOW + game_id * 100 - 50,
            ended_at=NOW + game_id * 100,
            options=options or {},
            players=[winner, loser],
            abandoned=False,
        ),
        events,
    )


async def _board(db, ranking: Ranking, asker: SeatInfo = CARL, **kwargs):
    return await leaderboard(
        db.connection, GUILD, ranking, Period.ALL_TIME, asker_id=asker.user_id, now=NOW, **kwargs
    )


async def test_equal_values_share_a_rank_and_the_next_rank_skips(db):
    # Anne and Bridget 2 wins each, Thomas 1, Carl none: ranks 1, 1, 3; Carl unranked.
    pairs = [(BRIDGET, CARL), (ANNE, CARL), (BRIDGET, THOMAS), (ANNE, THOMAS), (THOMAS, CARL)]
    pairs.append((ROBOT, BRIDGET))
    async with db.transaction() as connection:
        for game_id, (winner, loser) in enumerate(pairs, start=1):
            await save_result(connection, _two_player_result(game_id, winner, loser))
    board = await _board(db, Ranking.WINS)
    assert [(e.rank, e.user_id, e.wins) for e in board.top] == [
        (1, ANNE.user_id, 2),  # listed first: the same wins in fewer games (2, not 3)
        (1, BRIDGET.user_id, 2),
        (3, THOMAS.user_id, 1),
    ]
    assert board.asker is None and board.asker_games == 3
    lines = leaderboard_lines(board, PICKOMINO_HISTORY, lambda user, name: name)
    assert lines[0] == "`1.` **Anne** · 2 wins in 2 games *(tied)*"
    assert lines[2] == "`3.` **Thomas** · 1 win in 3 games"
    assert leaderboard_asker_line(board, PICKOMINO_HISTORY, lambda user, name: name) == (
        "You are not on this board: no win yet in your 3 games."
    )


async def test_nobody_without_a_win_is_ranked_first(db):
    # Only the computer player ever won: every person has 0 wins and none is first.
    async with db.transaction() as connection:
        for game_id, person in enumerate((ANNE, BRIDGET, ANNE), start=1):
            await save_result(connection, _two_player_result(game_id, ROBOT, person))
    for ranking in (Ranking.WINS, Ranking.WIN_RATE):
        board = await _board(db, ranking, ANNE)
        assert board.top == () and board.asker is None
    wins = await _board(db, Ranking.WINS, ANNE)
    assert leaderboard_empty(wins, PICKOMINO_HISTORY).startswith("Nobody has won a game")
    games = await _board(db, Ranking.GAMES, ANNE)
    assert [(e.rank, e.user_id, e.games) for e in games.top] == [
        (1, ANNE.user_id, 2),
        (2, BRIDGET.user_id, 1),
    ]


async def test_a_leaver_counts_a_game_left_not_a_game_played(db):
    async with db.transaction() as connection:
        await save_result(connection, _two_player_result(1, ANNE, BRIDGET))
        await save_result(connection, _two_player_result(2, ANNE, BRIDGET, left=True))
        await save_result(connection, _two_player_result(3, BRIDGET, ANNE))
    bridget = await player_stats(db.connection, GUILD, BRIDGET.user_id)
    assert bridget is not None
    assert (bridget.games, bridget.wins, bridget.left_games, bridget.stored_games) == (2, 1, 1, 3)
    assert bridget.current_streak == 1
    fields = dict(player_fields(bridget, PICKOMINO_HISTORY))
    assert fields["Games"] == "2" and fields["Left mid-game"] == "1"
    games = await _board(db, Ranking.GAMES, BRIDGET)
    assert [(e.user_id, e.games) for e in games.top] == [(ANNE.user_id, 3), (BRIDGET.user_id, 2)]
    (summary,) = (await history_page(db.connection, GUILD, size=3)).games[1:2]
    assert history_line(summary, PICKOMINO_HISTORY, lambda user, name: name).endswith(
        "🏆 **Anne** 1🪱 · ~~Bridget~~ (left)"
    )


async def test_extrawurm_games_are_marked_and_ranked_apart(db, games):
    played = [result for result in games if result.variant == "extrawurm"]
    assert len(played) == 5 and all(r.options["extrawurm"] for r in played)
    # Their scores are the standings' worms: Bratwurms included.
    assert all(p.score >= sum(worms(t) for t in p.end_state["tiles"]) for r in played
               for p in r.players if not p.left)  # fmt: skip
    async with db.transaction() as connection:
        for result in games:
            await save_result(connection, result)
    page = await history_page(db.connection, GUILD, size=100)
    marked = {g.game_id for g in page.games if g.variant == "extrawurm"}
    assert marked == {r.game_id for r in played}
    only = await _board(db, Ranking.GAMES, ANNE, variants=Variants.ONLY)
    assert {e.user_id: e.games for e in only.top} == {
        ANNE.user_id: 5,
        BRIDGET.user_id: 4,  # and one she left
        THOMAS.user_id: 5,
    }
    stats = await STORE.player_stats(db.connection, KIND, GUILD, ANNE.user_id, variant="extrawurm")
    assert stats is not None and stats.variant_games == 5
    assert dict(player_fields(stats, PICKOMINO_HISTORY))["Extrawurm games"] == "5"
    plain = await player_stats(db.connection, GUILD, ANNE.user_id)
    assert plain is not None and plain.variant_games is None
    assert "Extrawurm games" not in dict(player_fields(plain, PICKOMINO_HISTORY))
    line = next(history_line(g, PICKOMINO_HISTORY, lambda u, n: n) for g in page.games
                if g.game_id in marked)  # fmt: skip
    assert line.startswith(f"`#{played[-1].game_id}` 🌭 ")


def test_sqlite_has_window_functions():
    assert sqlite3.sqlite_version_info >= (3, 35)


async def test_period_windows_roll_forward_with_new_games_and_back(db):
    """Rolling 7/30-day totals stay equal to a fresh sum as days pass and games arrive."""
    rng = random.Random(8)
    seats = [ANNE, BRIDGET, THOMAS]
    saved: list[GameResult] = []

    async def add(day: int, count: int) -> None:
        async with db.transaction() as connection:
            for _ in range(count):
                ended_at = NOW + day * DAY - rng.randrange(0, 10 * 3600)
                result = result_of(
                    play(rng, seats), seats, game_id=len(saved) + 1, ended_at=ended_at
                )
                saved.append(result)
                await save_result(connection, result)

    async def check(day: int) -> None:
        for period in (Period.DAYS_7, Period.DAYS_30):
            for ranking in (Ranking.WINS, Ranking.AVERAGE_SCORE):
                board = await leaderboard(
                    db.connection,
                    GUILD,
                    ranking,
                    period,
                    asker_id=ANNE.user_id,
                    now=NOW + day * DAY,
                )
                top, _, games = expected_board(
                    saved, ranking, period, ANNE.user_id, now=NOW + day * DAY
                )
                assert [(e.rank, e.user_id, e.games, e.wins, e.score) for e in board.top] == top
                assert board.asker_games == games

    for day in range(-40, 0, 3):
        await add(day, 2)
    await check(0)  # built
    await add(0, 3)  # added to the built windows
    await check(0)
    for day in (1, 2, 5, 9, 45, 3):  # one day, a few days, stale, long gone, backwards
        await add(day, 1)
        await check(day)


# ---------------------------------------------------------------------- another game


async def test_another_games_results_are_kept_apart(conn, games):
    """A second game kind in the same server: Pickomino's pages never show its games,
    players or totals, and its own pages show only them."""
    runner = SeatInfo(7_777, "Runner", False)
    races = [
        race(10_000 + index, GUILD, NOW - index * 3600, {runner: 30 + index, ANNE: 1})
        for index in range(6)
    ]
    await conn.execute("BEGIN")
    for result in races:
        await STORE.save(conn, result)
    await conn.execute("COMMIT")

    page = await history_page(conn, GUILD)
    assert page.total == len(games)
    assert not {g.game_id for g in page.games} & {r.game_id for r in races}
    for ranking in Ranking:
        for period in Period:
            board = await leaderboard(
                conn, GUILD, ranking, period, asker_id=runner.user_id, now=NOW
            )
            assert runner.user_id not in [e.user_id for e in board.top]
            assert board.asker is None and board.asker_games == 0
            mine, _, _ = expected_board(games, ranking, period, ANNE.user_id)
            assert [(e.rank, e.user_id, e.games, e.wins, e.score) for e in board.top] == mine
    assert await player_stats(conn, GUILD, runner.user_id) is None
    assert await game_story(conn, GUILD, races[0].game_id) is None

    theirs = await STORE.history_page(conn, RACE.kind, GUILD)
    assert [g.game_id for g in theirs.games] == [r.game_id for r in races]
    assert all(g.game == RACE.kind for g in theirs.games)
    board = await STORE.leaderboard(
        conn, RACE.kind, GUILD, Ranking.AVERAGE_SCORE, Period.ALL_TIME, asker_id=ANNE.user_id
    )
    assert [(e.user_id, e.games, e.score) for e in board.top] == [
        (runner.user_id, 6, sum(30 + index for index in range(6))),
        (ANNE.user_id, 6, 6),
    ]
    stats = await STORE.player_stats(conn, RACE.kind, GUILD, ANNE.user_id)
    assert stats is not None and (stats.games, stats.wins, stats.figures) == (6, 0, {})
    story = await STORE.game_story(conn, RACE.kind, GUILD, races[0].game_id)
    assert story is not None and list(story.lines) == [[0, 30], [1, 1]]
