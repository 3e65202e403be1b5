"""Benchmark: the table's tabs at human pace, through the bot process's table server.

The bot runs as in production (`python -m bot`, SQLite, the table on: its aiohttp
server on a loopback ACTIVITY_ADDR, the page built) against the Discord stand-in in
this process (OAuth2 codes and tokens, /users/@me, the activity instances, the
gateway and REST). `--tables` channels each have three people with a tab open: each
signs in as the page does (a code traded at api/token), opens its socket, and the
table opens a Pickomino lobby, joins and starts from the tabs. Then, for `--seconds`:

- at the table: the person to move picks one of the moves the scene offers after a
  think of `--think` seconds (a game that ends is played again); an action's time
  runs from its frame sent to the last of the table's three tabs shown its change;
- in the chat: the same, with the live message's button clicked instead (the tabs
  still open, shown each change as before), once every live message has caught up
  with its table (how long that took is printed).

The bot's CPU time (user + system, from /proc) is read around each window: what one
table action costs the bot beside what one chat click costs it, tabs open in both
(a table action also edits the live message; a click also answers its interaction).

The bot's start-up work (its computer players' tables, kept in `--cache-dir` first as
the other benchmarks keep them) is over before the first window: measuring waits until
the bot is idle.

Usage: python -m benchmarks.bench_table [--tables 200] [--seconds 30] [--think 1-3]
       [--seed 1] [--cache-dir data/cache]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import orjson

from benchmarks.support.arguments import duration, positive, seconds_range
from benchmarks.support.picker_tables import keep_picker_tables
from benchmarks.support.procfs import cpu_seconds
from benchmarks.support.stats import percentile
from bot.devserver.standin import FakeDiscord
from bot.render.custom_ids import ClickAction, ComponentRef
from bot.table.assets import HOW_TO_BUILD, built_page
from tests.e2e.test_bot_e2e import REPO_ROOT, BotLauncher

PEOPLE = 3
CONNECTING = 20  # tabs signing in at once while the tables are set up
RETRIES = 6
SHOWN_TIMEOUT = 10.0  # an action not shown on every tab within this is counted missed
TARGET_P99_MS = 100.0
IDLE_SHARE = 0.05  # the bot is idle below this share of a core
IDLE_TIMEOUT = 120.0
CATCH_UP_TIMEOUT = 60.0  # for the live messages to show the table's last actions
Shown = tuple[int, int]  # (session id, version): what a state shows
READERS: set[asyncio.Task[None]] = set()  # each tab's, kept until its socket closes


@dataclass
class Tab:
    """One tab's socket: the newest state it was shown, and when each was shown."""

    ws: aiohttp.ClientWebSocketResponse
    user_id: int
    username: str
    scene: dict[str, Any] = field(default_factory=dict)
    shown: Shown = (-1, -1)  # nothing yet
    arrived: dict[Shown, float] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    answers: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def read(self) -> None:
        async for message in self.ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            frame = orjson.loads(message.data)
            if frame["t"] == "state":
                shown = (frame["session"] or 0, frame["version"])
                self.arrived.setdefault(shown, time.perf_counter())
                self.shown, self.scene = shown, frame["scene"]
                self.changed.set()
            elif "n" in frame and frame["n"] in self.answers:
                self.answers.pop(frame["n"]).set_result(frame)

    async def act(self, action: str, arg: str = "") -> dict[str, Any]:
        n = next(self.numbers)
        answer = self.answers[n] = asyncio.get_running_loop().create_future()
        session, version = self.shown
        frame = {"t": "act", "n": n, "session": session or None, "version": version}
        await self.ws.send_str(text_of({**frame, "action": action, "arg": arg}))
        try:
            return await asyncio.wait_for(answer, SHOWN_TIMEOUT)
        except TimeoutError:
            self.answers.pop(n, None)
            return {"t": "refused", "text": f"no answer within {SHOWN_TIMEOUT:g} s"}

    def moves(self) -> list[str]:
        return [
            a["arg"]
            for a in self.scene.get("actions", ())
            if a["action"] == "move" and a["enabled"]
        ]

    def seated(self) -> bool:
        return self.scene.get("you", {}).get("seat") is not None


@dataclass
class Window:
    """What one measured window saw."""

    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    missed: int = 0  # not shown on every tab within SHOWN_TIMEOUT
    refused: Counter[str] = field(default_factory=Counter)  # by the refusal's text
    cpu: float = 0.0


class TableOfThree:
    def __init__(self, tabs: list[Tab], channel_id: int) -> None:
        self.tabs = tabs
        self.channel_id = channel_id
        self.host = tabs[0]

    async def until_shown(self, after: Shown) -> float | None:
        """When the last tab was shown something newer than `after` (None: not in time)."""
        try:
            async with asyncio.timeout(SHOWN_TIMEOUT):
                for tab in self.tabs:
                    while tab.shown <= after:
                        tab.changed.clear()
                        await tab.changed.wait()
        except TimeoutError:
            return None
        return max(
            min(at for shown, at in tab.arrived.items() if shown > after) for tab in self.tabs
        )

    async def step(
        self, rng: random.Random, chat: FakeDiscord | None
    ) -> tuple[float, Shown, str | None]:
        """One step of the game as its people would take it, at the table (or with the
        live message's button when `chat` is given, for a move): when it was made, what
        was shown before it, and why the table refused it (None: it did not)."""
        scene = self.host.scene
        phase = scene.get("phase")
        before = max(tab.shown for tab in self.tabs)
        began = time.perf_counter()
        answer: dict[str, Any] = {"t": "done"}
        if phase == "start":
            answer = await self.host.act("open", "pickomino")
        elif phase == "lobby":
            waiting = [tab for tab in self.tabs if not tab.seated()]
            answer = await (waiting[0].act("join") if waiting else self.host.act("start"))
        elif phase == "ended":
            answer = await self.host.act("again")
        else:
            mover = next((tab for tab in self.tabs if tab.moves()), None)
            if mover is None:
                raise RuntimeError(f"nobody to move in channel {self.channel_id}")
            move = rng.choice(mover.moves())
            if chat is None:
                answer = await mover.act("move", move)
            else:
                await click_move(chat, mover, self.channel_id, move)
        return began, before, answer.get("text") if answer["t"] == "refused" else None


async def click_move(fake: FakeDiscord, mover: Tab, channel_id: int, move: str) -> None:
    """The mover clicks `move` on the live message, once it shows the version the tab does."""
    session, version = mover.shown
    custom_id = ComponentRef(ClickAction.MOVE, session, version, move).text

    def offered() -> bool:
        message = fake.live_message(channel_id)
        return any(b.custom_id == custom_id and not b.disabled for b in message.buttons)

    await fake.wait_for(offered, timeout=SHOWN_TIMEOUT, what="the live message's move")
    await fake.click(mover.username, fake.live_message(channel_id).id, custom_id)


async def play(
    table: TableOfThree,
    rng: random.Random,
    think: tuple[float, float],
    until: float,
    window: Window,
    chat: FakeDiscord | None,
) -> None:
    while True:
        await asyncio.sleep(rng.uniform(*think))
        if time.monotonic() >= until:
            return
        if chat is not None and table.host.scene.get("phase") != "playing":
            continue  # the chat plays moves only; the table waits for the next window
        began, before, refused = await table.step(rng, chat)
        window.actions += 1
        if refused is not None:
            window.refused[refused] += 1
            continue
        shown = await table.until_shown(before)
        if shown is None:
            window.missed += 1
        else:
            window.latencies.append(shown - began)


async def open_tab(
    fake: FakeDiscord, http: aiohttp.ClientSession, url: str, username: str, channel_id: int
) -> Tab:
    """A tab as the page opens one: a code traded for a token, the socket, its hello;
    closed to try again (Discord did not answer in time), it tries again as the page
    does, after 0.25 s, 0.5 s, 1 s..."""
    code = fake.mint_code(username)
    async with http.post(f"{url}/api/token", json={"code": code}) as answer:
        answer.raise_for_status()
        token = (await answer.json())["access_token"]
    instance = fake.launch(username, channel_id)
    hello = {"t": "hello", "v": 1, "token": token, "instance": instance, "locale": "en-US"}
    for attempt in range(RETRIES):
        ws = await http.ws_connect(f"{url}/api/ws")
        await ws.send_str(text_of(hello))
        message = await ws.receive(timeout=SHOWN_TIMEOUT)
        if message.type is aiohttp.WSMsgType.TEXT and orjson.loads(message.data)["t"] == "welcome":
            tab = Tab(ws, fake.user(username).id, username)
            READERS.add(asyncio.get_running_loop().create_task(tab.read()))
            return tab
        await ws.close()
        await asyncio.sleep(0.25 * 2**attempt)
    raise SystemExit(f"error: {username}'s tab was not let in {RETRIES} times")


async def measure(
    tables: list[TableOfThree],
    pid: int,
    seconds: float,
    think: tuple[float, float],
    seed: int,
    chat: FakeDiscord | None,
) -> Window:
    window = Window()
    cpu = cpu_seconds(pid)
    until = time.monotonic() + seconds
    await asyncio.gather(
        *(
            play(table, random.Random(seed * 1000 + n), think, until, window, chat)
            for n, table in enumerate(tables)
        )
    )
    window.cpu = cpu_seconds(pid) - cpu
    return window


async def set_up(fake: FakeDiscord, url: str, http: aiohttp.ClientSession) -> list[TableOfThree]:
    """Every table's three tabs open and its game begun."""
    channels = fake.guild_channels[fake.guild_id]
    gate = asyncio.Semaphore(CONNECTING)

    async def tab_of(index: int, channel_id: int) -> Tab:
        async with gate:
            return await open_tab(fake, http, url, f"p{index}", channel_id)

    async def table_of(n: int, channel_id: int) -> TableOfThree:
        tabs = await asyncio.gather(*(tab_of(n * PEOPLE + k, channel_id) for k in range(PEOPLE)))
        return TableOfThree(list(tabs), channel_id)

    tables = await asyncio.gather(*(table_of(n, c.id) for n, c in enumerate(channels)))
    shown = await asyncio.gather(*(table.until_shown((-1, -1)) for table in tables))
    closed = [tab.ws.close_code for table in tables for tab in table.tabs if tab.ws.closed]
    if None in shown or closed:
        raise SystemExit(f"error: tabs not shown their table (closed: {closed[:10]})")
    rng = random.Random(0)
    for _ in range(2 + PEOPLE):  # open, join, join, start: every table playing
        steps = [t for t in tables if t.host.scene.get("phase") in ("start", "lobby")]
        await asyncio.gather(*(step_shown(table, rng) for table in steps))
    return tables


async def step_shown(table: TableOfThree, rng: random.Random) -> None:
    _, before, _ = await table.step(rng, None)
    await table.until_shown(before)


def summary(kind: str, window: Window, seconds: float) -> list[str]:
    per = window.cpu / window.actions * 1000 if window.actions else float("nan")
    if window.latencies:
        p50 = statistics.median(window.latencies) * 1000
        p99 = percentile(window.latencies, 0.99) * 1000
        times = f"to every tab p50 {p50:.1f} ms, p99 {p99:.1f} ms"
    else:
        times, p99 = "none shown", float("nan")
    lines = [
        f"  {kind}: {window.actions} ({window.actions / seconds:.1f}/s), {times}, "
        f"refused {window.refused.total()}, missed {window.missed}; "
        f"bot CPU/{kind[:-1]} {per:.2f} ms"
    ]
    for text, times in window.refused.most_common(3):
        lines.append(f"    refused {times}x: {text}")
    if kind == "table actions":
        verdict = "met" if p99 < TARGET_P99_MS else "MISSED"
        lines.append(f"  target p99 < {TARGET_P99_MS:.0f} ms: {verdict}")
    return lines


async def until_caught_up(fake: FakeDiscord, tables: list[TableOfThree]) -> float:
    """Until every live message shows what its table's tabs do (the bot's token edits
    each at its share of Discord's pace, so they are behind at the window's end): how
    long that took."""
    began = time.perf_counter()

    def shows_the_table(table: TableOfThree) -> bool:
        session, version = table.host.shown
        message = fake.live_message(table.channel_id)
        shown = [str(session), str(version)]
        return any((b.custom_id or "").split(":")[2:4] == shown for b in message.buttons)

    await fake.wait_for(
        lambda: all(shows_the_table(table) for table in tables),
        timeout=CATCH_UP_TIMEOUT,
        what="the live messages showing their tables",
    )
    return time.perf_counter() - began


async def until_idle(pid: int) -> None:
    """Until the bot process spends under IDLE_SHARE of a core for half a second."""
    deadline = time.monotonic() + IDLE_TIMEOUT
    while time.monotonic() < deadline:
        before = cpu_seconds(pid)
        await asyncio.sleep(0.5)
        if cpu_seconds(pid) - before < IDLE_SHARE * 0.5:
            return


async def run(
    tables: int, seconds: float, think: tuple[float, float], seed: int, cache: Path
) -> None:
    if built_page() is None:
        sys.exit(f"error: {HOW_TO_BUILD}")
    print(await asyncio.to_thread(keep_picker_tables, REPO_ROOT, cache), end="")
    names = [f"p{n}" for n in range(tables * PEOPLE)]
    channels = [f"table-{n}" for n in range(tables)]
    low, high = think
    print(
        f"bench_table: {tables} tables of {PEOPLE} tabs, {seconds:g} s at the table then "
        f"{seconds:g} s in the chat, a step every {low:g}-{high:g} s per table"
    )
    with tempfile.TemporaryDirectory() as folder:
        async with (
            FakeDiscord(players=names, channel_names=channels, activities=True) as fake,
            # Every tab holds a connection: no cap on them (aiohttp's is 100).
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http,
        ):
            launcher = BotLauncher(fake, Path(folder))
            try:
                env = {"DISCORD_CLIENT_SECRET": fake.client_secret, "CACHE_DIR": str(cache)}
                process = await launcher.start(env)
                url = f"http://{launcher.activity_addr}"
                playing = await set_up(fake, url, http)
                pid = process.popen.pid
                await until_idle(pid)
                at_table = await measure(playing, pid, seconds, think, seed, None)
                caught_up = await until_caught_up(fake, playing)
                in_chat = await measure(playing, pid, seconds, think, seed + 1, fake)
                for table in playing:
                    for tab in table.tabs:
                        await tab.ws.close()
            finally:
                await launcher.stop_all()
            problems = [line for p in launcher.processes for line in p.problems()]
    lines = summary("table actions", at_table, seconds)
    lines.append(f"  live messages caught up with the table {caught_up:.1f} s after its window")
    for line in lines + summary("chat clicks", in_chat, seconds):
        print(line, flush=True)
    for line in problems[:10]:
        print(f"! {line}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=positive, default=200)
    parser.add_argument("--seconds", type=duration, default=30.0)
    parser.add_argument("--think", type=seconds_range, default=(1.0, 3.0))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache-dir", type=Path, default=REPO_ROOT / "data" / "cache")
    options = parser.parse_args(argv)
    asyncio.run(
        run(options.tables, options.seconds, options.think, options.seed, options.cache_dir)
    )


def text_of(frame: dict[str, Any]) -> str:
    """A frame as the page sends it: JSON in a text frame."""
    return orjson.dumps(frame).decode()


if __name__ == "__main__":
    main()
