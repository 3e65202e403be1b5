"""The session layer with a toy game, on SQLite and PostgreSQL: it needs nothing from
Pickomino."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bot.sessions import lobby, play
from bot.sessions.adapter import NO_COMPUTERS, IllegalMove
from bot.sessions.errors import (
    AlreadyLive,
    LobbyFull,
    MoveRefused,
    NotYourTurn,
    StaleButton,
    StaleMessage,
    StaleVersion,
)
from bot.sessions.model import Ending, RatingChange, Seat, Session, Status
from bot.sessions.service import Change, Expect, SessionService
from bot.storage import apply_migrations, open_database
from tests.databases import table_names

CHANNEL = 5


class Race:
    """Players take turns adding 1; whoever makes it 3 wins."""

    kind = "race"
    min_players = 2
    max_players = 3
    bot_levels = ("easy",)

    def new_game(self, players: Sequence[str], options: Mapping[str, Any], rng: Any) -> dict:
        return {"players": list(players), "turn": 0, "total": 0, "abandoned": False}

    def dump(self, game: dict) -> dict:
        return dict(game, players=list(game["players"]))

    def load(self, data: dict) -> dict:
        return self.dump(data)

    def copy(self, game: dict) -> dict:
        return self.dump(game)

    def current_player(self, game: dict) -> str | None:
        return None if self.is_over(game) else game["players"][game["turn"] % len(game["players"])]

    def turn_key(self, game: dict) -> str:
        return str(game["turn"])

    def is_over(self, game: dict) -> bool:
        return game["total"] >= 3 or game["abandoned"]

    def is_abandoned(self, game: dict) -> bool:
        return game["abandoned"]

    def play(self, game: dict, player: str, move: str, rng: Any) -> list[dict]:
        if player != self.current_player(game) or move != "add":
            raise IllegalMove(move)
        game["total"] += 1
        game["turn"] += 1
        return [{"type": "added", "total": game["total"]}]

    def timeout(self, game: dict, rng: Any) -> list[dict]:
        game["turn"] += 1
        return [{"type": "timeout"}]

    def remove_player(self, game: dict, player: str) -> list[dict]:
        game["players"].remove(player)
        game["abandoned"] = len(game["players"]) < 2
        return [{"type": "left", "player": player}]

    def abandon(self, game: dict) -> list[dict]:
        game["abandoned"] = True
        return [{"type": "abandoned"}]

    def bot_name(self, level: str, index: int) -> str:
        return f"Robot {index + 1}"

    def bot_move(self, game: dict, level: str, computers: Mapping[str, str] = NO_COMPUTERS) -> str:
        return "add"

    def hint(
        self,
        game: dict,
        player: str,
        names: Mapping[str, str],
        computers: Mapping[str, str] = NO_COMPUTERS,
    ) -> str:
        return f"{names.get(player, player)}: add one"


@pytest.fixture
async def service(database):
    service = SessionService(database, {"race": Race()}, rng=random.Random(1))
    yield service
    await service.close()


def _lobby(host: int = 1) -> Session:
    return Session("race", guild_id=9, channel_id=CHANNEL, host_id=host, seats=[Seat(host, "A")])


async def _join(service: SessionService, user: int) -> None:
    seat = Seat(user, f"P{user}")
    await service.update(CHANNEL, lambda s, c: lobby.join(s, c, seat))


async def test_a_game_from_lobby_to_end_with_the_result_hook(service):
    recorded: list[tuple[int | None, list[dict]]] = []

    async def hook(connection, session, events):
        recorded.append((session.id, events))

    service.game_over_hooks["race"] = hook
    await service.open(_lobby())
    with pytest.raises(AlreadyLive):
        await service.open(_lobby(host=2))
    await _join(service, 2)
    await service.update(CHANNEL, lambda s, c: lobby.start(s, c, 1))
    for user in (1, 2, 1):
        await service.update(CHANNEL, lambda s, c, u=user: play.make_move(s, c, u, "add"))
    assert await service.live(CHANNEL) is None
    ended = await service.by_id(1)
    assert ended is not None and ended.status is Status.OVER and ended.ending is Ending.FINISHED
    assert recorded == [(1, [{"type": "added", "total": n} for n in (1, 2, 3)])]


async def test_the_hooks_rating_changes_are_committed_with_the_ending(service):
    async def rate(connection, session, events):
        session.rating_changes = (RatingChange(1, 1_000, 1_061), RatingChange(2, 1_000, 958))

    service.game_over_hooks["race"] = rate
    await service.open(_lobby())
    await _join(service, 2)
    await service.update(CHANNEL, lambda s, c: lobby.start(s, c, 1))
    for user in (1, 2, 1):
        await service.update(CHANNEL, lambda s, c, u=user: play.make_move(s, c, u, "add"))
    ended = await service.by_id(1)
    assert ended is not None and ended.status is Status.OVER
    row = await service.store.get(1)
    assert row.state["ratings"] == [[1, 1_000, 1_061], [2, 1_000, 958]]
    assert "log" not in row.state  # still the compact final row
    assert ended.rating_changes == (RatingChange(1, 1_000, 1_061), RatingChange(2, 1_000, 958))


async def test_refusals_change_nothing(service):
    await service.open(_lobby())
    await _join(service, 2)
    await _join(service, 3)
    with pytest.raises(LobbyFull):
        await _join(service, 4)
    await service.update(CHANNEL, lambda s, c: lobby.start(s, c, 1))
    before = await service.live(CHANNEL)
    with pytest.raises(NotYourTurn):
        await service.update(CHANNEL, lambda s, c: play.make_move(s, c, 2, "add"))
    with pytest.raises(MoveRefused):
        await service.update(CHANNEL, lambda s, c: play.make_move(s, c, 1, "jump"))
    assert await service.live(CHANNEL) is before
    row = await service.store.get(before.id)
    assert row.version == before.version


async def test_expect_recognises_stale_clicks(service):
    await service.open(_lobby())
    session = await service.live(CHANNEL)
    session.message_id = 77
    noop = lambda s, c: []  # noqa: E731
    with pytest.raises(StaleButton):
        await service.update(CHANNEL, noop, expect=Expect(session_id=999))
    with pytest.raises(StaleMessage):
        await service.update(CHANNEL, noop, expect=Expect(session.id, message_id=78))
    with pytest.raises(StaleVersion):
        await service.update(CHANNEL, noop, expect=Expect(session.id, version=session.version - 1))
    change = await service.update(CHANNEL, noop, expect=Expect(session.id, session.version, 77))
    assert change.session.version == session.version + 1


async def test_a_failing_history_hook_does_not_keep_a_game_from_ending(service):
    async def broken(connection, session, events):
        await connection.execute("CREATE TABLE scratch (x INTEGER)")
        raise RuntimeError("bug in history")

    service.game_over_hooks["race"] = broken
    await service.open(_lobby())
    await _join(service, 2)
    await service.update(CHANNEL, lambda s, c: lobby.start(s, c, 1))
    change = await service.update(CHANNEL, lambda s, c: play.end(s, c, 2, moderator=True))
    assert change.ended and change.session.ending is Ending.ABANDONED
    # The hook's work was rolled back to its savepoint.
    assert "scratch" not in await table_names(service.db)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def _timed_game(service: SessionService, guild_id: int, channel_id: int) -> Session:
    session = Session(
        "race", guild_id=guild_id, channel_id=channel_id, host_id=1, seats=[Seat(1, "A")]
    )
    session.timer_seconds = 60
    await service.open(session)
    await service.update(channel_id, lambda s, c: lobby.join(s, c, Seat(2, "B")))
    change = await service.update(channel_id, lambda s, c: lobby.start(s, c, 1))
    assert change.session.deadline is not None
    return change.session


def _shard_of(guild_id: int, shard_count: int = 2) -> int:
    return (guild_id >> 22) % shard_count


async def test_a_process_rearms_only_the_timers_of_its_shards_guilds(database):
    clock = Clock()
    first = SessionService(database, {"race": Race()}, rng=random.Random(1), clock=clock)
    guilds = [0 << 22, 1 << 22, 2 << 22]  # shards 0, 1, 0 of two
    for channel, guild in enumerate(guilds, start=10):
        await _timed_game(first, guild, channel)
    await first.close()
    shard_one = SessionService(
        database,
        {"race": Race()},
        clock=clock,
        owns_guild=lambda guild_id: _shard_of(guild_id) == 1,
    )
    assert await shard_one.restore_timers() == 1
    assert list(shard_one.timers.pending()) == [11]
    await shard_one.close()


async def test_a_restarted_process_numbers_events_on_without_a_read_per_game(database):
    first = SessionService(database, {"race": Race()}, rng=random.Random(1), clock=Clock())
    sessions = [await _timed_game(first, 9, channel) for channel in (10, 11)]
    await first.update(10, lambda s, c: play.make_move(s, c, 1, "add"))
    await first.close()
    events_before = await first.store.events(sessions[0].id)

    restarted = SessionService(database, {"race": Race()}, rng=random.Random(1), clock=Clock())
    assert await restarted.restore_timers() == 2

    async def no_read(session_id: int) -> int:
        raise AssertionError(f"read the last event of session {session_id} again")

    restarted.store.last_seq = no_read  # type: ignore[method-assign]
    await restarted.update(10, lambda s, c: play.make_move(s, c, 2, "add"))
    await restarted.update(11, lambda s, c: play.make_move(s, c, 1, "add"))
    rows = await database.fetchall(
        "SELECT session_id, seq FROM session_events ORDER BY session_id, seq"
    )
    numbered = [(row["session_id"], row["seq"]) for row in rows]
    first_id, second_id = sessions[0].id, sessions[1].id
    before = len(events_before)
    assert numbered == [(first_id, seq) for seq in range(1, before + 2)] + [
        (second_id, seq) for seq in range(1, len(await restarted.store.events(second_id)) + 1)
    ]
    await restarted.close()


async def test_a_process_shows_again_only_the_messages_of_its_shards_guilds(database):
    first = SessionService(database, {"race": Race()}, rng=random.Random(1), clock=Clock())
    guilds = [0 << 22, 1 << 22, 2 << 22]  # shards 0, 1, 0 of two
    for channel, guild in enumerate(guilds, start=10):
        await _timed_game(first, guild, channel)

        def posted(draft: Session, tools: object, channel: int = channel) -> list[object]:
            draft.message_id = 500 + channel
            return []

        await first.update(channel, posted)
    await first.close()
    async with database.transaction() as connection:  # every reply lost to a crash
        await connection.execute("UPDATE sessions SET shown_version = 0")

    shown: list[int] = []

    class Listener:
        async def session_changed(self, change: Change) -> None:
            shown.append(change.session.channel_id)

    shard_one = SessionService(
        database,
        {"race": Race()},
        clock=Clock(),
        owns_guild=lambda guild_id: _shard_of(guild_id) == 1,
    )
    shard_one.listener = Listener()  # type: ignore[assignment]
    # The other shard's messages are its own to show: shown from here they could go
    # back to a version older than the one it has shown meanwhile.
    assert await shard_one.repair_stored() == 1
    assert shown == [11]
    await shard_one.close()


async def test_two_processes_apply_one_due_timer_once(database, database_url):
    clock = Clock()
    first = SessionService(database, {"race": Race()}, rng=random.Random(1), clock=clock)
    session = await _timed_game(first, 9, CHANNEL)
    other_db = await open_database(database_url)  # the second process's own connections
    second = SessionService(other_db, {"race": Race()}, rng=random.Random(2), clock=clock)
    assert await second.restore_timers() == 1
    assert session.deadline is not None
    clock.now = session.deadline + 1
    await asyncio.gather(first.run_timer(CHANNEL), second.run_timer(CHANNEL))
    events = await first.store.events(session.id)
    assert [e["type"] for e in events] == ["timeout"]
    stored = await first.store.get(session.id)
    assert stored is not None and stored.version == session.version + 1
    await second.close()
    await other_db.close()
    await first.close()


async def test_on_postgres_a_held_row_makes_timers_skip_and_clicks_wait(postgres_url):
    import asyncpg

    db = await open_database(postgres_url)
    await apply_migrations(db)
    clock = Clock()
    service = SessionService(db, {"race": Race()}, rng=random.Random(1), clock=clock)
    session = await _timed_game(service, 9, CHANNEL)
    assert session.deadline is not None
    other = await asyncpg.connect(postgres_url)  # another process, in a commit of its own
    holding = other.transaction()
    await holding.start()
    await other.execute("SELECT id FROM sessions WHERE id = $1 FOR UPDATE", session.id)
    clock.now = session.deadline + 1
    await asyncio.wait_for(service.run_timer(CHANNEL), timeout=10)  # skipped, not waited for
    assert await service.store.events(session.id) == []
    assert service.timers.pending()[CHANNEL] == clock.now + 1  # looked at again soon
    click = asyncio.create_task(
        service.update(CHANNEL, lambda s, c: play.make_move(s, c, 1, "add"))
    )
    await asyncio.sleep(0.3)
    assert not click.done()  # the click's commit queues behind the other process's lock
    await holding.rollback()
    await other.close()
    change = await asyncio.wait_for(click, timeout=10)
    assert change.session.version == session.version + 1
    assert [e["type"] for e in await service.store.events(session.id)] == ["added"]
    await service.close()
    await db.close()


def test_the_computer_levels_name_every_seat_a_computer_plays() -> None:
    session = Session(
        "race",
        guild_id=9,
        channel_id=CHANNEL,
        host_id=1,
        seats=[
            Seat(1, "A"),
            Seat(-1, "Robot 1", is_bot=True, bot_level="hard"),
            Seat(2, "B", left=True),  # a person who left: a game may keep their seat
            Seat(-2, "Robot 2", is_bot=True, bot_level="easy"),
        ],
    )
    assert session.computer_levels() == {"-1": "hard", "2": "", "-2": "easy"}


async def test_computer_players_decide_two_at_a_time_in_threads_of_their_own(database):
    """A burst of computer players' turns (a restart resumes them all at once) computes
    two at a time, so that the event loop keeps its share of the GIL."""
    running: list[str] = []
    names: set[str] = set()
    most = 0

    class SlowRace(Race):
        def bot_move(self, game: dict, level: str, computers: Any = NO_COMPUTERS) -> str:
            nonlocal most
            running.append(threading.current_thread().name)
            names.add(running[-1])
            most = max(most, len(running))
            time.sleep(0.05)
            running.pop()
            return "add"

    clock = Clock()
    service = SessionService(database, {"race": SlowRace()}, rng=random.Random(1), clock=clock)
    channels = range(20, 26)
    for channel in channels:
        opened = Session("race", guild_id=9, channel_id=channel, host_id=1, seats=[Seat(1, "A")])
        await service.open(opened)
        robot = Seat(-1, "Robot 1", is_bot=True, bot_level="easy")
        await service.update(channel, lambda s, c, r=robot: lobby.join(s, c, r))
        await service.update(channel, lambda s, c: lobby.start(s, c, 1))
        await service.update(channel, lambda s, c: play.make_move(s, c, 1, "add"))
    clock.now += 60  # every computer player is due
    await asyncio.gather(*(service.run_timer(channel) for channel in channels))
    assert most == 2
    assert names and all(name.startswith("computer-players") for name in names)
    for channel in channels:
        session = await service.live(channel)
        assert session is not None and session.game["total"] == 2  # each robot added one
    await service.close()
