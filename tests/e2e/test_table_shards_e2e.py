"""End to end, two shard processes on one PostgreSQL database, both with the table on:
the table of a channel whose guild is on shard 1 is served by shard 0's process (the
proxy's upstream is its ACTIVITY_ADDR), three people's tabs in real Chromium at 390×844
(tests/e2e/table_driver). Moves alternate between the table (the tab's act, committed by
shard 0's process) and the chat (a click on the live message, handled by shard 1's
process, which owns the game); each is drawn on every tab within 1 s (from the page's
act, or the test's clock before the chat click), the chat's through PostgreSQL's NOTIFY
to the serving process. The live message follows the table's moves (the owner adopts
them), so each chat click is made on the version the tabs show."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.devserver.standin import FakeDiscord, Realism
from tests.discord_harness import free_port
from tests.e2e.table_driver import Chat, Seat, TableStage, pickomino_choice, table_browser
from tests.e2e.test_bot_e2e import PLAYERS, BotLauncher, BotProcess, launching
from tests.e2e.test_shards_e2e import SHARD_COUNT, Table, open_game, shard_of, shard_ready
from tests.e2e.test_table_restart_e2e import to_move

pytestmark = pytest.mark.e2e

BUDGET = 120.0
ROUNDS = 5  # each a move at the table and a click in the chat
SHOWN_WITHIN = 1.0  # seconds from a press to the change drawn on every tab


@pytest.fixture
async def two_guilds(realism: Realism) -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(guilds=SHARD_COUNT, realism=realism) as fake:
        yield fake
    fake.check()


@pytest.fixture
async def shard_launcher(
    two_guilds: FakeDiscord, postgres_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[BotLauncher]:
    async with launching(two_guilds, tmp_path / "bots", request, postgres_url) as launcher:
        yield launcher


async def start_shard(
    launcher: BotLauncher, stage: TableStage, shard: int, activity_addr: str
) -> BotProcess:
    env = stage.env() | {
        "SHARD_COUNT": str(SHARD_COUNT),
        "SHARD_IDS": str(shard),
        "ACTIVITY_ADDR": activity_addr,
    }
    fake = launcher.fake
    return await launcher.start(env, ready=shard_ready(fake, shard, set(fake.sessions)))


async def shown_on_every_tab(seats: Sequence[Seat], session: int, version: int) -> float:
    """When (wall clock) the last of the tabs drew a state after `version`."""
    return max([(await seat.wait_drawn(version, session)).at for seat in seats])


async def test_a_table_served_by_one_shard_follows_a_game_the_other_owns(
    two_guilds: FakeDiscord, shard_launcher: BotLauncher
) -> None:
    fake, launcher = two_guilds, shard_launcher
    [owned_guild] = [guild for guild in fake.guild_ids if shard_of(guild) == 1]
    table = Table(owned_guild, fake.guild_channels[owned_guild][0].id)
    chat = Chat(fake, table.channel_id)
    at_table: list[float] = []
    in_chat: list[float] = []
    live_followed: list[float] = []
    async with (
        asyncio.timeout(BUDGET),
        TableStage(fake, launcher.activity_addr) as stage,
        table_browser() as browser,
    ):
        # Shard 0 serves the table (the proxy's upstream); shard 1 owns the game's guild.
        serving = await start_shard(launcher, stage, 0, launcher.activity_addr)
        owner = await start_shard(launcher, stage, 1, f"127.0.0.1:{free_port()}")
        await open_game(fake, table)
        seats = [await stage.seat(browser, name, table.channel_id) for name in PLAYERS]

        for _ in range(ROUNDS):
            # A move at the table: committed by the serving process.
            seat, moves = await to_move(seats)
            shown = await seat.shown()
            assert shown is not None and shown.session == table.game
            await seat.press(f"move:{pickomino_choice(moves)}")
            pressed = (await seat.sent())[-1]["at"] / 1000  # when the page sent it
            at_table.append(await shown_on_every_tab(seats, table.game, shown.version) - pressed)
            # The owner adopts it and shows it in the chat.
            await chat.wait_version(table.game, shown.version + 1)
            live_followed.append(time.time() - pressed)

            # A click in the chat: handled by the owner, reaching the tabs through NOTIFY.
            seat, _ = await to_move(seats)
            pressed = await chat.make(seat.user, pickomino_choice(list(chat.moves())))
            in_chat.append(await shown_on_every_tab(seats, table.game, shown.version + 1) - pressed)

        # The chat's clicks went to the owner: the guild's gateway session is shard 1's.
        session = fake.session_for(owned_guild)
        assert session is not None and session.shard == (1, SHARD_COUNT)
        for seat in seats:
            assert await seat.problems() == [], seat.user
            await seat.close()

    print(
        f"table shards e2e: {ROUNDS} moves at the table served by shard 0, drawn on all "
        f"{len(PLAYERS)} tabs in median {statistics.median(at_table) * 1000:.0f} ms, max "
        f"{max(at_table) * 1000:.0f} ms (the live message by shard 1 followed in median "
        f"{statistics.median(live_followed) * 1000:.0f} ms); {ROUNDS} clicks in the chat "
        f"handled by shard 1, drawn on all tabs in median "
        f"{statistics.median(in_chat) * 1000:.0f} ms, max {max(in_chat) * 1000:.0f} ms"
    )
    slow = [f"{s:.3f}" for s in at_table + in_chat if s > SHOWN_WITHIN]
    assert not slow, f"shown on every tab later than {SHOWN_WITHIN} s: {slow}"
    for process in (serving, owner):
        assert await process.stop() == 0, process.log()
    problems = [line for process in launcher.processes for line in process.problems()]
    assert not problems, "a bot logged errors:\n" + "\n".join(problems)
