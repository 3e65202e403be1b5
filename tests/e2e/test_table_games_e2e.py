"""End to end at the table: whole games played in real Chromium by three people, each in
a browser of their own at 390x844, through Discord's client page on the stand-in's
proxy (the real Embedded App SDK signing in), against the real bot process and its own
table server; the dice pinned (DICE_SEED).

Every action shows on every other tab: each action's time to each other tab is measured
(the act's send, or the chat click, to the tab drawing the state after it) and p50/p99
printed; p99 must be under a second. The live message follows the table (its buttons
carry the version the table shows); the end screen shows the ratings; the database
holds every move the tabs showed.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser

from bot.devserver.standin import FakeDiscord
from bot.games.picker.engine.colours import Colour
from tests.e2e.table_driver import (
    Acted,
    Chat,
    Choose,
    Seat,
    TableStage,
    Timeline,
    claimed_tile,
    percentile,
    picker_choice,
    pickomino_choice,
    summary,
    table_browser,
    table_moves,
)
from tests.e2e.test_bot_e2e import BotLauncher, no_problems

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
CHAT_PLAYER = "carol"  # plays every second turn of hers with the chat's buttons
SEED = "60"
BUDGET = 150.0
MAX_ACTIONS = 600
LATENCY_LIMIT = 1.0


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with table_browser() as launched:
        yield launched


async def seated(stage: TableStage, browser: Browser) -> dict[str, Seat]:
    """Everyone opens the table in the channel, each in a browser of their own."""
    opened = await asyncio.gather(*(stage.seat(browser, name) for name in PLAYERS))
    return dict(zip(PLAYERS, opened, strict=True))


async def everyone_sees(seats: dict[str, Seat], session: int | None, version: int) -> int:
    """Until every tab drew a state after `version`; that state's session."""
    drawn = await asyncio.gather(*(seat.wait_drawn(version, session) for seat in seats.values()))
    sessions = {state.session for state in drawn}
    assert len(sessions) == 1 and None not in sessions, drawn
    return sessions.pop() or 0


async def open_at_the_table(seats: dict[str, Seat], game: str) -> tuple[int, int]:
    """The first person opens a lobby of `game` at the table, the others join there and
    the host starts it; the (session, version) everyone then shows."""
    host, *others = seats.values()
    start = await host.shown()
    assert start is not None and start.session is None and start.phase == "start", start
    await host.press(f"open:{game}")
    session = await everyone_sees(seats, None, start.version)
    for seat in others:
        before = await seat.shown()
        assert before is not None and before.phase == "lobby", before
        await seat.press("join:")
        await everyone_sees(seats, session, before.version)
    before = await host.shown()
    assert before is not None
    await host.press("start:")
    await everyone_sees(seats, session, before.version)
    now = await host.shown()
    assert now is not None and now.phase == "playing", now
    return session, now.version


async def play_to_the_end(
    seats: dict[str, Seat],
    chat: Chat,
    choose: Choose,
    in_chat: Callable[[str, int], bool],
    session: int,
    version: int,
) -> Timeline:
    """Whoever's turn it is moves, at the table or (`in_chat(user, their turn number)`)
    with the live message's buttons, until the game ends; each action shown on every
    tab before the next."""
    timeline = Timeline()
    turns: Counter[str] = Counter()
    mover_before: str | None = None
    chat_turn = False
    while len(timeline.acted) < MAX_ACTIONS:
        moves = await asyncio.gather(*(table_moves(seat) for seat in seats.values()))
        offered = dict(zip(seats, moves, strict=True))
        movers = [user for user, moves in offered.items() if moves]
        if not movers:
            state = await seats[PLAYERS[0]].shown()
            assert state is not None and state.phase == "ended", (state, offered)
            return timeline
        assert len(movers) == 1, f"moves offered to {movers}"
        [user] = movers
        if user != mover_before:
            turns[user] += 1
            chat_turn = in_chat(user, turns[user])
            mover_before = user
        if chat_turn:
            acted = await move_in_chat(chat, user, choose, offered[user], session, version)
        else:
            acted = await move_at_table(seats[user], choose, offered[user], session, version)
        timeline.add(acted)
        drawn = await asyncio.gather(
            *(seat.wait_drawn(version, session) for seat in seats.values())
        )
        version = drawn[0].version
    raise AssertionError(f"the game did not end within {MAX_ACTIONS} actions")


async def move_at_table(
    seat: Seat, choose: Choose, moves: list[str], session: int, version: int
) -> Acted:
    move = choose(moves)
    await seat.press(f"move:{move}")
    sent = [a for a in await seat.sent() if a.get("t") == "act"]
    last = sent[-1]
    assert (last["action"], last.get("arg"), last["version"]) == ("move", move, version), last
    return Acted(seat.user, "table", session, version, move, last["at"] / 1000)


async def move_in_chat(
    chat: Chat, user: str, choose: Choose, moves: list[str], session: int, version: int
) -> Acted:
    """The same choice, made with the live message's buttons once it shows the table's
    state: it offers the moves the table does."""
    await chat.wait_version(session, version)
    offered = chat.moves()
    assert sorted(offered) == sorted(moves), (offered, moves)
    move = choose(moves)
    at = await chat.make(user, move)
    return Acted(user, "chat", session, version, move, at)


def stored(database: Path, session: int) -> tuple[str, int, list[Any]]:
    """The session's status and version in the database, and its game's story (what
    each turn came to, kept once the game is over; its events are dropped then)."""
    with sqlite3.connect(database) as db:
        status, version = db.execute(
            "SELECT status, version FROM sessions WHERE id = ?", (session,)
        ).fetchone()
        (turns,) = db.execute(
            "SELECT turns FROM game_stories WHERE game_id = ?", (session,)
        ).fetchone()
    return str(status), int(version), json.loads(turns)


def pickomino_story(acted: list[Acted], story: list[Any]) -> tuple[list[Any], list[Any]]:
    """The claims made as the story tells them ([seat, "took"|"stole", tile]) and the
    turns played; and the story's."""
    made = [
        [
            PLAYERS.index(a.user),
            "stole" if a.key.startswith("claim:s") else "took",
            claimed_tile(a.key),
        ]
        for a in acted
        if a.key.startswith("claim:")
    ]
    told = [entry[:3] for entry in story if entry[1] != "failed"]
    turns = sum(1 for i, a in enumerate(acted) if i == 0 or acted[i - 1].user != a.user)
    return [made, turns], [told, len(story)]


def picker_story(acted: list[Acted], story: list[Any]) -> tuple[list[Any], list[Any]]:
    """The picks made ([seat, colour]) and the story's, round after round."""
    colours = list(Colour)
    made = [[PLAYERS.index(a.user), colours.index(Colour(a.key.split(":")[1]))] for a in acted]
    told = [pick[:2] for _, picks, *_ in story for pick in picks]
    return made, told


STORIES = {"pickomino": pickomino_story, "picker": picker_story}


async def check_the_end(
    seats: dict[str, Seat],
    chat: Chat,
    timeline: Timeline,
    database: Path,
    session: int,
    game: str,
) -> None:
    """Every action showed on every other tab within a second (p99); the live message
    shows the end; every tab shows the ratings; the database holds every move."""
    delays = await timeline.delays(list(seats.values()))
    latencies = [seconds for _, _, seconds in delays]
    for acted, user, seconds in sorted(delays, key=lambda d: -d[2])[:3]:
        print(f"{game}: slowest: {seconds * 1000:.0f} ms to {user}'s tab after {acted}")
    where = Counter(acted.where for acted in timeline.acted)
    print(
        f"{game}: {len(timeline.acted)} actions ({dict(where)}); "
        + summary("to every other tab", latencies)
    )
    assert where["chat"] > 0 and where["table"] > 0, where
    assert percentile(latencies, 0.99) < LATENCY_LIMIT, summary("latency", latencies)

    final = await seats[PLAYERS[0]].shown()
    assert final is not None and final.phase == "ended"
    await chat.wait_version(session, final.version)
    print(f"{game}: " + summary("table action to the live message", chat.lags(timeline)))
    names = [chat.fake.user(user).display_name for user in PLAYERS]
    for user, seat in seats.items():
        ratings = await seat.ratings()
        assert len(ratings) == len(PLAYERS), (user, ratings)
        for name in names:
            assert any(line.startswith(f"{name}: 1,000 → ") for line in ratings), (name, ratings)
        assert sorted(await seat.places()) == sorted(names)
        assert not await seat.problems(), (user, await seat.problems())

    status, version, story = stored(database, session)
    assert (status, version) == ("over", final.version)
    drawn = {
        d.version for seat in seats.values() for d in await seat.drawn() if d.session == session
    }
    assert max(drawn) == version, "a tab showed a version the database does not hold"
    made, told = STORIES[game](timeline.acted, story)
    assert made == told, "the moves shown are not the moves stored"


CHOOSERS = {"pickomino": pickomino_choice, "picker": picker_choice}


@pytest.mark.parametrize("game", sorted(CHOOSERS))
async def test_a_whole_game_at_the_table(
    fake_discord: FakeDiscord, launcher: BotLauncher, browser: Browser, game: str
) -> None:
    fake = fake_discord
    async with asyncio.timeout(BUDGET), TableStage(fake, launcher.activity_addr) as stage:
        began = time.monotonic()
        await launcher.start(stage.env(dice_seed=SEED))
        chat = Chat(fake)
        chat.follow()
        seats = await seated(stage, browser)
        try:
            session, version = await open_at_the_table(seats, game)
            timeline = await play_to_the_end(
                seats,
                chat,
                CHOOSERS[game],
                lambda user, turn: user == CHAT_PLAYER and turn % 2 == 0,
                session,
                version,
            )
            await check_the_end(seats, chat, timeline, launcher.database, session, game)
        finally:
            for seat in seats.values():
                await seat.close()
        print(f"{game} at the table: {time.monotonic() - began:.1f} s")
    no_problems(launcher)
