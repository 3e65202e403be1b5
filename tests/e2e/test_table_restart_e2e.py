"""End to end: the bot process killed (SIGKILL) in the middle of a game played at the
table, three people's tabs open in real Chromium (the real page and SDK, through the
stand-in's proxy and Discord's client page; tests/e2e/table_driver). Its tabs say they
are reconnecting; the process is started again on the same database; each tab
reconnects by itself (its own backoff, no reload) and shows the committed state, the
turn where it was; a move made at the table then shows on every tab. Nothing is lost:
the database holds every move the tabs showed before the kill, as its own version with
its events."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from playwright.async_api import expect

from bot.devserver.standin import FakeDiscord
from bot.devserver.standin.proxy import UPSTREAM_GONE
from bot.i18n import t
from tests.e2e.table_driver import Button, Seat, TableStage, pickomino_choice, table_browser
from tests.e2e.test_bot_e2e import PLAYERS, BotLauncher, no_problems
from tests.e2e.test_shards_e2e import Table, open_game

pytestmark = pytest.mark.e2e

BUDGET = 120.0
MOVES_BEFORE_KILL = 4  # at least; then on to a keep with the turn going on
RECONNECT_TIMEOUT = 15.0  # the new process's start-up aside: the page's backoff is 4 s at most
# What a tab shows of the game; the rest (the cue, the log) tells what just happened,
# which a process started afresh does not know.
SHOWN = (".headline", ".prompt", ".notice", ".players", ".board", ".dice")
OFFLINE = re.compile(r"\boffline\b")  # the page's body while it is not connected


@pytest.fixture
async def stage(fake_discord: FakeDiscord, launcher: BotLauncher) -> AsyncIterator[TableStage]:
    async with TableStage(fake_discord, launcher.activity_addr) as started:
        yield started


def stored(database: Path, game: int) -> tuple[int, set[int]]:
    """The game's stored version, and the versions its stored events belong to."""
    with sqlite3.connect(database) as db:
        (version,) = db.execute("SELECT version FROM sessions WHERE id = ?", (game,)).fetchone()
        rows = db.execute("SELECT version FROM session_events WHERE session_id = ?", (game,))
        return version, {row[0] for row in rows}


async def to_move(seats: Sequence[Seat]) -> tuple[Seat, list[str]]:
    """The seat whose page offers moves (the person to move), and those moves."""
    for seat in seats:
        moves = [button.arg for button in await seat.enabled("move")]
        if moves:
            return seat, moves
    raise AssertionError("no tab offers a move")


async def move_at_the_table(seats: Sequence[Seat]) -> tuple[int, str, list[str]]:
    """The person to move presses the test's choice; once every tab shows it: the new
    version, the move, and the moves the mover is offered next."""
    seat, moves = await to_move(seats)
    shown = await seat.shown()
    assert shown is not None and shown.session is not None
    move = pickomino_choice(moves)
    await seat.press(f"move:{move}")
    for each in seats:
        await each.wait_drawn(shown.version, shown.session)
    return shown.version + 1, move, [button.arg for button in await seat.enabled("move")]


async def what_is_shown(seat: Seat) -> tuple[dict[str, list[str]], list[Button]]:
    """The game as the tab draws it: the state of play's texts, and the buttons."""
    return {selector: await seat.text(selector) for selector in SHOWN}, await seat.buttons()


async def test_tabs_reconnect_on_their_own_to_the_restarted_bot_and_lose_nothing(
    fake_discord: FakeDiscord, launcher: BotLauncher, stage: TableStage
) -> None:
    fake = fake_discord
    table = Table(fake.guild_id, fake.channel.id)
    async with asyncio.timeout(BUDGET), table_browser() as browser:
        bot = await launcher.start(stage.env())
        await open_game(fake, table)
        seats = [await stage.seat(browser, name, table.channel_id) for name in PLAYERS]
        opened = {await seat.shown() for seat in seats}
        [first] = {shown.version for shown in opened if shown is not None}
        assert {shown.session for shown in opened if shown is not None} == {table.game}

        # Moves at the table until the turn is under way: dice kept, more to roll.
        made: dict[int, str] = {}
        while True:
            version, move, offered = await move_at_the_table(seats)
            made[version] = move
            if len(made) >= MOVES_BEFORE_KILL and move.startswith("keep:") and "roll" in offered:
                break
            assert len(made) < 60, "no turn with dice kept and a roll to come"
        before = {seat.user: await what_is_shown(seat) for seat in seats}
        drawn_before = {seat.user: await seat.drawn() for seat in seats}
        shown = {drawn.version for states in drawn_before.values() for drawn in states}

        killed_at = time.time()
        await bot.kill()
        for seat in seats:  # the proxy lost the upstream: the page says it is reconnecting
            await expect(seat.frame.locator("body")).to_have_class(OFFLINE)
            banner = seat.table.get_by_role("status")
            await expect(banner).to_have_text(t("table.page.reconnecting"))
        # Nothing lost: every move a tab showed is stored, each its own version with the
        # events it committed.
        stored_version, event_versions = stored(launcher.database, table.game)
        assert stored_version == version == max(shown) == first + len(made)
        assert shown - {first} == set(made) <= event_versions, (made, sorted(event_versions))

        restarted = await launcher.start(stage.env())
        back_at = time.time()
        reconnected: list[float] = []
        for seat in seats:
            await seat.frame.wait_for_function(
                "n => window.__table.states.length > n",
                arg=len(drawn_before[seat.user]),
                timeout=RECONNECT_TIMEOUT * 1000,
            )
            drawn = await seat.drawn()
            # The same page (a reload would have started its record afresh), a new socket.
            assert drawn[: len(drawn_before[seat.user])] == drawn_before[seat.user], seat.user
            assert set(await seat.closes()) == {UPSTREAM_GONE}, seat.user
            again = drawn[len(drawn_before[seat.user])]
            assert (again.session, again.version) == (table.game, stored_version)
            reconnected.append(again.at - back_at)
            body = seat.frame.locator("body")
            await expect(body).not_to_have_class(OFFLINE)
            await expect(seat.table.get_by_role("status")).to_be_hidden()
            assert await what_is_shown(seat) == before[seat.user], seat.user

        # The game goes on at the table after the restart, on every tab, and is stored.
        version, move, _ = await move_at_the_table(seats)
        made[version] = move
        stored_version, event_versions = stored(launcher.database, table.game)
        assert stored_version == version == first + len(made)
        assert set(made) <= event_versions

        for seat in seats:
            assert await seat.problems() == [], seat.user
            await seat.close()

    print(
        f"table restart e2e: {len(made)} moves at the table, killed after "
        f"{len(made) - 1}; the new process ready {back_at - killed_at:.2f} s after the kill, "
        f"the tabs showing the game again {', '.join(f'{s:.2f}' for s in reconnected)} s "
        "after that"
    )
    assert await restarted.stop() == 0, restarted.log()
    no_problems(launcher)
