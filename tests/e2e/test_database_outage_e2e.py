"""End to end, the database crashing under a game: one `python -m bot` process on a
PostgreSQL server of the test's own, against the Discord stand-in.

In the middle of a turn the server's postmaster is SIGKILLed (its backends follow). While
it is down, the player to move keeps clicking: every click is answered within Discord's
3 s, only to the clicker, with the database-down message in their language, and nothing
changes; /healthz says 503 with the reason. The server is started again on the same data
directory (crash recovery); the bot reconnects by itself, /healthz says 200, and the game
is played to its end from where it was: every accepted click is one stored version, and
the bot logged the outage as warnings, never an error or a traceback.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.devserver.standin import FakeDiscord
from bot.i18n import t
from bot.i18n.locales import with_locale
from bot.sessions.service import TIMER_RETRY_SECONDS
from tests.databases import KillablePostgres, PostgresServer
from tests.e2e.test_bot_e2e import (
    DEADLINE,
    BotLauncher,
    accepted_click,
    choose,
    current_player,
    is_final,
    launching,
    snapshot,
)
from tests.e2e.test_extrawurm_e2e import person_to_move
from tests.e2e.test_play_anywhere_e2e import open_table
from tests.e2e.test_shards_e2e import Table, mid_turn, open_game, play, stored_version

pytestmark = pytest.mark.e2e

TEST_BUDGET = 90.0
OUTAGE_SECONDS = 8.0  # the server is down this long (an operator's 20 s, shortened for CI)
CLICK_EVERY_SECONDS = 0.5
BACK_TIMEOUT = 20.0  # for /healthz to say 200 after the restart
BOT_STEP_SECONDS = 2.0  # the computer player's first step is due after the crash


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def healthz(port: int) -> tuple[int, dict[str, str]]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/healthz", timeout=aiohttp.ClientTimeout(5)) as answer,
    ):
        return answer.status, await answer.json()


async def until_healthy(port: int, timeout: float) -> float:
    """Wait for /healthz to say 200; how long it took."""
    began = time.monotonic()
    while (await healthz(port))[0] != 200:
        assert time.monotonic() - began < timeout, f"/healthz: {await healthz(port)}"
        await asyncio.sleep(0.2)
    return time.monotonic() - began


async def refused_while_down(fake: FakeDiscord, table: Table, down_text: str) -> float:
    """The player to move clicks; the click must be answered within 3 s, and the answer
    only they see must say the database is down. How long until they read it."""
    message = fake.get_message(table.message_id)
    assert message is not None
    button = next(b for b in message.buttons if b.custom_id and not b.disabled)
    click = await fake.click(current_player(fake, message), table.message_id, button.custom_id)
    await fake.wait_for(lambda: bool(click.ephemeral_messages), what="the answer")
    assert click.latency is not None and click.latency < DEADLINE, click.describe()
    assert down_text in click.text, click.describe()
    assert click.dispatched_at is not None
    answers = [at for at, _, what, status in click.calls if status < 300 and what != "callback"]
    told = max([click.dispatched_at + click.latency, *answers]) - click.dispatched_at
    assert told < DEADLINE, click.describe()
    return told


@pytest.fixture
async def outage_launcher(
    fake_discord: FakeDiscord,
    killable_postgres: KillablePostgres,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> AsyncIterator[BotLauncher]:
    url = await killable_postgres.create_database()
    async with launching(fake_discord, tmp_path / "bot", request, url) as launcher:
        yield launcher


async def test_a_postgres_crash_mid_game_is_told_and_survived(
    fake_discord: FakeDiscord, outage_launcher: BotLauncher, killable_postgres: KillablePostgres
) -> None:
    fake, launcher, server = fake_discord, outage_launcher, killable_postgres
    port = free_port()
    began = time.monotonic()
    down_text = t("error.database_down")
    async with asyncio.timeout(TEST_BUDGET):
        bot = await launcher.start(
            {"HEALTH_ADDR": f"127.0.0.1:{port}", "BOT_STEP_SECONDS": str(BOT_STEP_SECONDS)}
        )
        guild = fake.guild_ids[0]
        table = Table(guild, fake.guild_channels[guild][0].id)
        await open_game(fake, table)
        table.started_version, _ = await stored_version(launcher.database_url, table.game)
        assert await play(fake, table, pause=mid_turn) == "keep"
        await until_healthy(port, BACK_TIMEOUT)  # READY a moment after the guilds

        second = await fake.add_channel("second-table")
        third = await fake.add_channel("third-table")
        fake.add_user("dieter", locale="de")
        # alice against a Normal computer player at the second table.
        robot_table = Table(guild, second.id)
        robot_table.message_id = await open_table(fake, second.id, people=("alice",))
        robot_message = fake.get_message(robot_table.message_id)
        assert robot_message is not None
        with with_locale("de"):
            down_in_german = t("error.database_down")

        # A server that hangs: the click is acknowledged at 1.5 s, and told once the
        # driver gives up on the statement (2 s).
        message = fake.get_message(table.message_id)
        assert message is not None
        before = snapshot(message)
        # A turn ping deleted while its record could not go is deleted again after.
        fake.database_was_down = True
        await asyncio.to_thread(server.freeze, True)
        try:
            hung = await refused_while_down(fake, table, down_text)
            assert snapshot(message) == before, "a click changed the game while it hung"
            status, body = await healthz(port)
            assert status == 503 and "database" in body["reason"], body
        finally:
            await asyncio.to_thread(server.freeze, False)
        await until_healthy(port, BACK_TIMEOUT)

        # alice ends her turn against the computer; its first step (BOT_STEP_SECONDS
        # later) falls in the crash.
        assert not is_final(robot_message)
        while person_to_move(fake, robot_message, ("alice",)) == "alice":
            await accepted_click(fake, "alice", robot_table.message_id, choose(robot_message)[1])
        robot_before = snapshot(robot_message)

        # The crash: the postmaster SIGKILLed, its backends gone with it.
        await asyncio.to_thread(server.kill)
        crashed = time.monotonic()
        message = fake.get_message(table.message_id)
        assert message is not None
        before = snapshot(message)
        refused = []
        reasons = set()
        while time.monotonic() - crashed < OUTAGE_SECONDS:
            refused.append(await refused_while_down(fake, table, down_text))
            assert snapshot(message) == before, "a click changed the game while it was down"
            status, body = await healthz(port)
            assert status == 503 and "database" in body["reason"], body
            reasons.add(body["reason"].split(":")[0])
            if len(refused) == 1:  # commands too, in the asker's language
                for user, command, channel, text in [
                    ("dieter", "pickomino start", third.id, down_in_german),
                    ("carol", "pickomino score history", table.channel_id, down_text),
                ]:
                    asked = await fake.send_command(user, command, channel_id=channel)
                    await fake.wait_for(lambda a=asked: a.text != "", what="the answer")
                    assert asked.latency is not None and asked.latency < DEADLINE, asked.describe()
                    assert asked.ephemeral and text in asked.text, asked.describe()
            await asyncio.sleep(CLICK_EVERY_SECONDS)

        assert snapshot(robot_message) == robot_before, "the computer moved while it was down"

        # Back: crash recovery on the same data; the bot finds it by itself.
        restarting = time.monotonic()
        await asyncio.to_thread(server.restart)
        recovery = time.monotonic() - restarting
        back_after = await until_healthy(port, BACK_TIMEOUT)

        # The computer player's step that was due in the outage comes after it (its timer
        # is tried again every TIMER_RETRY_SECONDS).
        await fake.wait_for(
            lambda: snapshot(robot_message) != robot_before,
            timeout=TIMER_RETRY_SECONDS + 10,
            what="the computer player to move after the outage",
        )

        # The game goes on from where it was, to its end; nothing accepted was lost.
        assert await play(fake, table) is None
        version, status = await stored_version(launcher.database_url, table.game)
        assert status == "over"
        assert version == table.started_version + table.clicks, (table, version)

    assert await bot.stop() == 0, bot.log()
    log = bot.log()
    assert "database unreachable" in log and "database reachable again" in log, log
    assert "turn timer in channel" in log, log  # the computer's step, tried again
    assert not bot.problems(), "the bot logged errors:\n" + "\n".join(bot.problems())
    print(
        f"database outage e2e: a hung server's click told in {hung * 1000:.0f} ms; "
        f"{len(refused)} clicks refused in {OUTAGE_SECONDS:g} s down "
        f"(told within {max(refused) * 1000:.0f} ms), /healthz {sorted(reasons)}; the "
        f"restart's crash recovery {recovery:.1f} s, healthy {back_after:.1f} s after it; "
        f"{table.clicks} accepted clicks; test {time.monotonic() - began:.1f} s"
    )


@pytest.mark.parametrize("host", ["127.0.0.1:{closed}", "nowhere.invalid"])
async def test_a_database_url_that_points_nowhere_is_one_error_line(
    fake_discord: FakeDiscord, tmp_path: Path, host: str
) -> None:
    """At start-up: an `error:` line saying where it looked and what to check, exit 1
    (unreachable, as for Discord; a refusal such as a wrong password is 2, a
    configuration error), no traceback, no password."""
    launcher = BotLauncher(fake_discord, tmp_path)
    closed = free_port()  # bound for a moment, then nobody listens there
    url = f"postgresql://bot:secret-word@{host.format(closed=closed)}/pickomino"
    began = time.monotonic()
    returncode, err = await start_once(launcher, url, tmp_path)
    took = time.monotonic() - began
    assert returncode == 1, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: database: cannot connect to PostgreSQL at "), err
    assert f"{host.format(closed=closed)}/pickomino" in last and "DATABASE_URL" in last, last
    assert "secret-word" not in err and "Traceback" not in err, err
    print(f"start-up with {host}: exit 1 after {took:.1f} s: {last}")


async def test_a_database_that_refuses_the_bot_is_a_configuration_error(
    fake_discord: FakeDiscord, postgres_server: PostgresServer, tmp_path: Path
) -> None:
    """A server that answers but refuses (here: no such database) is exit 2, one line."""
    launcher = BotLauncher(fake_discord, tmp_path)
    url = postgres_server.url("no_such_database")
    returncode, err = await start_once(launcher, url, tmp_path)
    assert returncode == 2, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: database: cannot connect to PostgreSQL at "), err
    assert "no_such_database" in last and "Traceback" not in err, err


async def start_once(launcher: BotLauncher, url: str, cwd: Path) -> tuple[int, str]:
    """`python -m bot` with DATABASE_URL `url`, to its exit: its exit code and stderr."""
    done = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env=launcher.env() | {"DATABASE_URL": url},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(done.communicate(), 30)
    return done.returncode if done.returncode is not None else -1, stderr.decode()
