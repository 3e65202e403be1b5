"""End to end, beyond one process: two `python -m bot` processes, shards 0 and 1 of two, on
one PostgreSQL database (a real server, started by the `postgres_url` fixture), against the
Discord stand-in with four guilds, each guild's events going to the shard that owns it.

Games run in guilds of both shards at once. In the middle of a turn the process of shard 1
is killed with SIGKILL; while it is down the games of shard 0 go on being played, click
after click; it is started again, and its games resume where they were (the dice kept
before the kill are still kept) and are played to the end. Nothing accepted is lost: every
accepted click is one stored version of its game, and every game reaches the history.

The restarted process resumes shard 1's gateway session (bot.connection.gateway_resume),
so Discord replays the clicks made while it was down: one made as it connects is played
and answered within Discord's 3 s; one made just after the kill, replayed too late for
its 3 s, is not played at all (its person was told it failed).
"""

from __future__ import annotations

import asyncio
import signal
import statistics
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from bot.connection.gateway_resume import ANSWERABLE_SECONDS
from bot.devserver.standin import FakeDiscord, FakeInteraction, FakeMessage, Realism
from bot.i18n import t
from tests.e2e.test_bot_e2e import (
    CB_DEFERRED_UPDATE,
    CB_UPDATE,
    DEADLINE,
    PLAYERS,
    START_TIMEOUT,
    BotLauncher,
    BotProcess,
    accepted_click,
    as_unicode,
    choose,
    current_player,
    game_id,
    interruptible,
    is_final,
    kept_line,
    launching,
    roll_button,
    snapshot,
)

pytestmark = pytest.mark.e2e

SHARD_COUNT = 2
GUILDS = 4
TEST_BUDGET = 300.0
MAX_CLICKS = 3000
# While shard 1's process is down, shard 0's games must take this many more clicks.
CLICKS_WHILE_DOWN = 6


def shard_of(guild_id: int) -> int:
    return (guild_id >> 22) % SHARD_COUNT


@dataclass
class Table:
    """One game in one guild's channel, as the test plays it."""

    guild_id: int
    channel_id: int
    message_id: int = 0
    game: int = 0
    clicks: int = 0  # accepted clicks since the game started
    started_version: int = 0

    @property
    def shard(self) -> int:
        return shard_of(self.guild_id)


def shard_ready(fake: FakeDiscord, shard: int, known: set[str]) -> Callable[[], bool]:
    """Whether a session of `shard` that is new since `known` were the sessions, or one of
    those resumed since, receives all of that shard's guilds."""
    resumes = {session_id: fake.sessions[session_id].resumes for session_id in known}

    def ready() -> bool:
        back = [
            session
            for session_id, session in fake.sessions.items()
            if session.shard == (shard, SHARD_COUNT)
            and (session_id not in known or session.resumes > resumes[session_id])
        ]
        if not back:
            return False
        newest = max(back, key=lambda session: session.active_since)
        return all(
            fake.guild_ready(guild) and fake.session_for(guild) is newest
            for guild in fake.guild_ids
            if shard_of(guild) == shard
        )

    return ready


async def start_shard(launcher: BotLauncher, shard: int) -> BotProcess:
    fake = launcher.fake
    process = await launcher.start(
        {"SHARD_COUNT": str(SHARD_COUNT), "SHARD_IDS": str(shard)},
        ready=shard_ready(fake, shard, set(fake.sessions)),
    )
    return process


async def open_game(fake: FakeDiscord, table: Table) -> None:
    """alice opens a lobby in the table's channel, bob and carol join, alice starts."""
    started = await fake.send_command(
        "alice", "pickomino start", {"turn_timer": 0}, channel_id=table.channel_id
    )
    lobby = started.message
    assert lobby is not None and lobby.has_button(t("lobby.button.join")), started.describe()
    for name in PLAYERS[1:]:
        await accepted_click(fake, name, lobby.id, lobby.button(t("lobby.button.join")))
    await accepted_click(fake, "alice", lobby.id, lobby.button(t("lobby.button.start")))
    assert roll_button(lobby) is not None, lobby.render()
    table.message_id = lobby.id
    table.game = game_id(lobby)


async def play(
    fake: FakeDiscord,
    table: Table,
    *,
    pause: Callable[[FakeMessage, str, Table], bool] | None = None,
) -> str | None:
    """Press the current player's buttons until the game is over (None), or until
    `pause(message, kind, table)` says to stop after a click (that click's kind)."""
    while table.clicks < MAX_CLICKS:
        message = fake.get_message(table.message_id)
        assert message is not None
        if is_final(message):
            return None
        kind, button = choose(message)
        await accepted_click(fake, current_player(fake, message), table.message_id, button)
        table.clicks += 1
        if pause is not None and pause(message, kind, table):
            return kind
    raise AssertionError(f"no end after {MAX_CLICKS} clicks in guild {table.guild_id}")


def mid_turn(message: FakeMessage, kind: str, table: Table) -> bool:
    return table.clicks >= 4 and interruptible(message, kind)


async def click_roll(fake: FakeDiscord, table: Table) -> FakeInteraction:
    """The current player's Roll in the table's game, not waiting for an answer."""
    message = fake.get_message(table.message_id)
    assert message is not None
    roll = roll_button(message)
    assert roll is not None, message.render()
    player = current_player(fake, message)
    return await fake.click(player, table.message_id, roll.custom_id, wait=False)


async def stored_version(database_url: str, game: int) -> tuple[int, str]:
    connection = await asyncpg.connect(database_url)
    try:
        row = await connection.fetchrow("SELECT version, status FROM sessions WHERE id = $1", game)
    finally:
        await connection.close()
    assert row is not None, f"game {game} is not stored"
    return row["version"], row["status"]


@pytest.fixture
async def four_guilds(realism: Realism) -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(guilds=GUILDS, realism=realism) as fake:
        yield fake
    fake.check()


@pytest.fixture
async def shard_launcher(
    four_guilds: FakeDiscord, postgres_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[BotLauncher]:
    async with launching(four_guilds, tmp_path / "bots", request, postgres_url) as launcher:
        yield launcher


async def test_two_shard_processes_on_postgres_survive_a_sigkill(
    four_guilds: FakeDiscord, shard_launcher: BotLauncher, postgres_url: str
) -> None:
    fake, launcher = four_guilds, shard_launcher
    began = time.monotonic()
    tables = [
        Table(guild, fake.guild_channels[guild][0].id)
        for guild in fake.guild_ids  # consecutive shard numbers: two guilds per shard
    ]
    assert sorted(table.shard for table in tables) == [0, 0, 1, 1]
    steady = [table for table in tables if table.shard == 0]
    killed = [table for table in tables if table.shard == 1]
    async with asyncio.timeout(TEST_BUDGET):
        shard0 = await start_shard(launcher, 0)
        shard1 = await start_shard(launcher, 1)
        await fake.wait_for_commands("pickomino", timeout=START_TIMEOUT)

        # Four games at once, two in each process.
        await asyncio.gather(*(open_game(fake, table) for table in tables))
        for table in tables:
            table.started_version, _ = await stored_version(postgres_url, table.game)
        steady_games = [asyncio.create_task(play(fake, table)) for table in steady]

        # Shard 1's games go until both are in the middle of a turn, then its process dies.
        paused = await asyncio.gather(*(play(fake, table, pause=mid_turn) for table in killed))
        assert paused == ["keep", "keep"], "a game ended before its turn could be interrupted"
        kept_before = {
            table.game: kept_line(fake.get_message(table.message_id)) for table in killed
        }
        shown_before = {
            table.game: snapshot(fake.get_message(table.message_id))[:2] for table in killed
        }
        killed_at = time.perf_counter()  # the stand-in's clock for dispatched_at
        await shard1.kill()
        assert shard1.popen.returncode == -signal.SIGKILL
        await fake.wait_for(
            lambda: not any(fake.guild_ready(table.guild_id) for table in killed),
            what="the stand-in to see shard 1 gone",
        )

        # A click in shard 1's first game right after the kill: Discord keeps it for the
        # session, to be replayed only after its 3 s.
        early_table, late_table = killed
        early = await click_roll(fake, early_table)
        clicked_early = time.monotonic()

        # Shard 0's games never stop: clicks are accepted while shard 1 is down.
        clicks_at_kill = sum(table.clicks for table in steady)

        def steady_moved_on() -> bool:
            failed = [task for task in steady_games if task.done() and task.exception()]
            assert not failed, failed[0].exception()
            finished = all(task.done() for task in steady_games)
            return finished or sum(t.clicks for t in steady) >= clicks_at_kill + CLICKS_WHILE_DOWN

        await fake.wait_for(steady_moved_on, timeout=60, what="shard 0's games to go on")
        clicks_while_down = sum(table.clicks for table in steady) - clicks_at_kill
        assert clicks_while_down >= CLICKS_WHILE_DOWN or all(t.done() for t in steady_games)

        # Shard 1 comes back on the same database, resuming its gateway session. A click
        # in its second game as it connects is replayed to it at once.
        await asyncio.sleep(max(0.0, ANSWERABLE_SECONDS + 0.5 - (time.monotonic() - clicked_early)))
        late_player = current_player(fake, fake.get_message(late_table.message_id))
        restarting = await launcher.connecting(start_shard(launcher, 1))
        late = await click_roll(fake, late_table)
        restarted = await restarting
        back_at = time.perf_counter()
        await late.wait_settled()
        assert late.latency is not None and late.latency < DEADLINE, late.describe()
        assert late.response_type in (CB_UPDATE, CB_DEFERRED_UPDATE), late.describe()
        assert early.response_type is None, "a click replayed after its 3 s was answered"
        assert "too late to answer: not acted on" in restarted.log()
        shard1_sessions = [s for s in fake.sessions.values() if s.shard == (1, SHARD_COUNT)]
        assert len(shard1_sessions) == 1 and shard1_sessions[0].resumes == 1, "not resumed"
        late_table.clicks += 1

        # Its games are where they were: the early click changed nothing.
        for table in killed:
            message = fake.get_message(table.message_id)
            assert message is not None
            if table is late_table:
                player = late_player
            else:
                assert snapshot(message)[:2] == shown_before[table.game], "the restart changed it"
                player = current_player(fake, message)
                roll = roll_button(message)
                assert roll is not None
                await accepted_click(fake, player, table.message_id, roll)
                table.clicks += 1
            still_turn = not is_final(message) and current_player(fake, message) == player
            if still_turn and kept_line(message):
                kept_after = as_unicode(kept_line(message))
                assert kept_after == as_unicode(kept_before[table.game]), message.render()

        await asyncio.gather(*(play(fake, table) for table in killed), *steady_games)

        # Nothing accepted is lost: each accepted click is one version of its stored game,
        # and every game is in its guild's history.
        for table in tables:
            message = fake.get_message(table.message_id)
            assert message is not None and is_final(message)
            version, status = await stored_version(postgres_url, table.game)
            assert status == "over"
            assert version == table.started_version + table.clicks, (table, version)
            history = await fake.send_command(
                "carol", "pickomino score history", channel_id=table.channel_id
            )
            assert f"#{table.game}" in history.text, history.describe()

    # Shard 0's process never reconnected: its one gateway session carried it throughout.
    shard0_sessions = [s for s in fake.sessions.values() if s.shard == (0, SHARD_COUNT)]
    assert len(shard0_sessions) == 1 and shard0_sessions[0].resumes == 0
    latencies = [i.latency for i in fake.interactions if i.latency is not None]
    unanswered = [i for i in fake.interactions if i.latency is None]
    assert unanswered == [early], "an interaction was not answered"
    # Shard 0's games never noticed: each click while shard 1 was down or starting again
    # was answered within Discord's 3 s, as an accepted move (accepted_click checked it).
    steady_channels = {table.channel_id for table in steady}
    during = [
        i
        for i in fake.interactions
        if i.channel_id in steady_channels
        and i.dispatched_at is not None
        and killed_at <= i.dispatched_at <= back_at
    ]
    assert len(during) >= min(CLICKS_WHILE_DOWN, clicks_while_down), len(during)
    slow = [i.describe() for i in during if i.latency is None or i.latency >= DEADLINE]
    assert not slow, slow
    clicks = sum(table.clicks for table in tables)
    worst_during = max(i.latency or 0.0 for i in during)
    print(
        f"shards e2e: {len(tables)} games, {clicks} clicks ({clicks_while_down} in shard 0 "
        f"while shard 1 was down, {len(during)} until it was back, their callback max "
        f"{worst_during * 1000:.1f} ms); callback p50 "
        f"{statistics.median(latencies) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms; "
        f"test {time.monotonic() - began:.1f} s"
    )
    assert await shard0.stop() == 0, shard0.log()
    assert await restarted.stop() == 0, restarted.log()
    problems = [line for process in launcher.processes for line in process.problems()]
    assert not problems, "a bot logged errors:\n" + "\n".join(problems)
