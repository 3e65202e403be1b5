"""Benchmark: button clicks through the bot process, delivered and answered as Discord does.

Two processes. The bot runs as in production (`python -m bot`: SQLite in WAL mode in a
temporary file, logging at INFO to a file, turn pings on) against a loopback stand-in of
Discord that runs in this process with the players: a gateway websocket (zlib-stream, as
discord.py asks for it) that delivers every click as an INTERACTION_CREATE, and the REST
routes the bot calls (every interaction response is a real aiohttp request). A click's
time runs from the moment its INTERACTION_CREATE is sent to the moment its interaction
response arrives, which the bot sends only after the commit. As Discord does, the
stand-in also sends MESSAGE_CREATE and MESSAGE_UPDATE for the bot's channel messages if
the bot asked for the guild messages intent, and answers an interaction callback with
204 No Content unless asked `with_response`.

Each of `--games` tables (three players) plays whole games: the players' moves, the
click that ends the game (which also writes its history and draws the end picture), then
Play again and Start. Figures are given apart for moves, game-over clicks and lobby
clicks. Clicks arrive closed-loop (`--in-flight` at a time, a new one as soon as one is
answered) or open-loop (`--rate` per second on a fixed schedule, latency counted from
the scheduled instant).

The bot's CPU time (user + system, all its threads, from /proc) is read around each
measured window: `bot CPU/click` is what one click costs the bot process, and
`1 / (bot CPU/click)` is the throughput one bot process can reach on one core, whatever
else runs on the machine. The wall-clock throughput and latencies are measured too, but
they also pay for this process (the stand-in and the players) and for anything else the
machine runs.

Every run starts a fresh bot and database, opens the games, plays `--warmup` clicks,
then measures one window of `--clicks`; figures are medians over `--repeats` runs.
`--bot-dir` names the checkout whose bot is run (its own .venv if it has one); given
twice or more, the checkouts take turns run by run, for a before/after in one go:

    python -m benchmarks.bench_clicks --bot-dir /work/main --bot-dir . --in-flight 10

Usage: python -m benchmarks.bench_clicks [--games 500] [--in-flight 1] [--rate 0]
       [--clicks 3000] [--repeats 3] [--warmup 500] [--seed 1] [--bot-dir DIR ...]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

from benchmarks.support.arguments import count, positive
from benchmarks.support.stats import percentile
from bot.devserver import payloads
from bot.devserver.payloads import (
    APPLICATION_ID,
    BUTTON,
    GUILD_ID,
    MEMBER_PERMISSIONS,
    TIMESTAMP,
    click_payload,
    message_payload,
    start_command,
    user_payload,
)
from bot.games.registry import GAMES
from bot.i18n import add_catalogs, t

# The games' own strings (Pickomino's "whose turn" line is read from the message): a
# game's catalogs are added when the bot serves it, which this process does not.
add_catalogs(*GAMES.catalogs())

PLAYERS_PER_GAME = 3
FIRST_CHANNEL = 700_000_000_000_000_001
# Ids whose last five digits (the player's name) have five digits from the first on, so
# that no player's name is the start of another's.
FIRST_USER = 100_000_000_000_010_001
DEFERRED_UPDATE = 6  # an interaction callback type: acknowledged, the message edited later
EPHEMERAL = 1 << 6
GUILD_MESSAGES_INTENT = 1 << 9
KEEP_ORDER = ("🪱", "6️⃣", "5️⃣", "4️⃣", "3️⃣", "2️⃣", "1️⃣")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
BOT_START_SECONDS = 60.0
CLICK_TIMEOUT_SECONDS = 30.0
BOT_USER = {
    "id": str(APPLICATION_ID),
    "username": "pickomino",
    "global_name": None,
    "discriminator": "0000",
    "avatar": None,
    "bot": True,
}


def channel_payload(channel_id: int) -> dict[str, Any]:
    index = channel_id - FIRST_CHANNEL
    return payloads.channel_payload(channel_id, name=f"pickomino-{index}", position=index)


# --------------------------------------------------------------------------- the stand-in


@dataclass(slots=True)
class Answer:
    """What the stand-in saw of an interaction response."""

    at: float  # perf_counter() when the response arrived
    kind: int  # 4: a new message, 7: the clicked message updated, 6: deferred, then edited
    message: dict[str, Any] | None
    ephemeral: bool


async def body_json(request: web.Request) -> Any:
    """A request's JSON: the body, or with files (the end picture) its payload_json part."""
    if not request.content_type.startswith("multipart/"):
        return await request.json()
    data: Any = {}
    async for part in await request.multipart():
        if isinstance(part, BodyPartReader) and part.name == "payload_json":
            data = await part.json()
        elif isinstance(part, BodyPartReader):
            await part.read()  # a file: the players do not look at pictures
    return data


def answer_json(data: Any, status: int = 200) -> web.Response:
    # discord.py reads a body as JSON only if the content type is exactly this (no charset).
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class LoopbackDiscord:
    """Just enough of Discord for the bot to connect, log in and answer clicks: the
    gateway, and the REST routes it calls. It keeps the messages, so the players see
    what the bot showed."""

    def __init__(self, channels: list[int]) -> None:
        self.channels = channels
        self.ids = itertools.count(1_000_000_000_000_000_000)
        self.messages: dict[str, dict[str, Any]] = {}
        self.answers: dict[str, asyncio.Future[Answer]] = {}
        self.deferred: dict[str, str] = {}  # a deferred click's token -> its interaction id
        self.unknown_routes: list[str] = []
        self.identified = asyncio.Event()
        self._ws: web.WebSocketResponse | None = None
        self._compressor: Any = None
        self._send_lock = asyncio.Lock()
        self._seq = 0
        self._intents = 0
        self._events: set[asyncio.Task[None]] = set()

    def app(self) -> web.Application:
        app = web.Application()
        route = app.router
        route.add_get("/gateway", self.gateway)
        route.add_get("/api/v10/gateway", self.gateway_url)
        route.add_get("/api/v10/gateway/bot", self.gateway_url)
        route.add_get("/api/v10/users/@me", self.me)
        route.add_get("/api/v10/oauth2/applications/@me", self.application)
        route.add_put("/api/v10/applications/{app}/commands", self.commands)
        route.add_put("/api/v10/applications/{app}/guilds/{guild}/commands", self.commands)
        route.add_post("/api/v10/interactions/{id}/{token}/callback", self.callback)
        route.add_post("/api/v10/webhooks/{app}/{token}", self.followup)
        # Turn pings are follow-ups, deleted through the token that sent them.
        route.add_delete("/api/v10/webhooks/{app}/{token}/messages/{message}", self.delete)
        # A click acknowledged first (a deferred update, while the channel's earlier
        # changes are still being shown) is shown by an edit of its @original.
        route.add_patch("/api/v10/webhooks/{app}/{token}/messages/@original", self.edit_original)
        route.add_get("/api/v10/applications/{app}/commands", self.no_commands)
        route.add_post("/api/v10/channels/{channel}/messages", self.create)
        route.add_patch("/api/v10/channels/{channel}/messages/{message}", self.edit)
        route.add_delete("/api/v10/channels/{channel}/messages/{message}", self.delete)
        route.add_route("*", "/{tail:.*}", self.unknown)
        return app

    # ---- the gateway

    async def gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._ws = ws
        if request.query.get("compress") == "zlib-stream":
            self._compressor = zlib.compressobj()
        await self.send({"op": 10, "d": {"heartbeat_interval": 41_250}, "s": None, "t": None})
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            if frame["op"] == 1:
                await self.send({"op": 11, "d": None, "s": None, "t": None})
            elif frame["op"] == 2:
                self._intents = int(frame["d"].get("intents") or 0)
                await self.dispatch("READY", self.ready_payload())
                await self.dispatch("GUILD_CREATE", self.guild_payload())
                self.identified.set()
        return ws

    async def send(self, frame: dict[str, Any]) -> None:
        data = json.dumps(frame, separators=(",", ":")).encode()
        async with self._send_lock:  # compressed chunks must go out in order
            assert self._ws is not None
            if self._compressor is None:
                await self._ws.send_str(data.decode())
                return
            chunk = self._compressor.compress(data) + self._compressor.flush(zlib.Z_SYNC_FLUSH)
            await self._ws.send_bytes(chunk)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self._seq += 1
        await self.send({"op": 0, "t": event, "s": self._seq, "d": data})

    def ready_payload(self) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**BOT_USER, "verified": True, "mfa_enabled": False, "flags": 0},
            "session_type": "normal",
            "session_id": "bench",
            "resume_gateway_url": "ws://127.0.0.1:1/gateway",  # never resumed
            "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "application": {"id": str(APPLICATION_ID), "flags": 0},
        }

    def guild_payload(self) -> dict[str, Any]:
        return {
            "id": str(GUILD_ID),
            "name": "Bench",
            "icon": None,
            "owner_id": "1",
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(GUILD_ID),
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_flags": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "joined_at": TIMESTAMP,
            "large": False,
            "unavailable": False,
            "member_count": 1,
            "members": [],
            "channels": [channel_payload(channel) for channel in self.channels],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
        }

    # ---- REST

    def store(self, channel: str, data: dict[str, Any]) -> dict[str, Any]:
        message = message_payload(next(self.ids), int(channel), BOT_USER, data)
        if not message["flags"] & EPHEMERAL:  # players never click an ephemeral answer here
            self.messages[message["id"]] = message
            self.message_event("MESSAGE_CREATE", message)
        return message

    def update(self, message_id: str, data: dict[str, Any]) -> dict[str, Any] | None:
        message = self.messages.get(message_id)
        if message is not None:
            for key in ("content", "embeds", "components", "flags"):
                if key in data:
                    message[key] = data[key] if data[key] is not None else []
            self.message_event("MESSAGE_UPDATE", message)
        return message

    def message_event(self, event: str, message: dict[str, Any]) -> None:
        """As Discord: a message created or edited in a channel is also sent to a bot
        that asked for the guild messages intent (never an ephemeral one)."""
        if self._intents & GUILD_MESSAGES_INTENT:
            task = asyncio.create_task(self.dispatch(event, {**message, "guild_id": str(GUILD_ID)}))
            self._events.add(task)
            task.add_done_callback(self._events.discard)

    async def gateway_url(self, request: web.Request) -> web.Response:
        url = f"ws://{request.host}/gateway"
        return answer_json({"url": url, "shards": 1, "session_start_limit": {}})

    async def me(self, request: web.Request) -> web.Response:
        return answer_json(BOT_USER)

    async def application(self, request: web.Request) -> web.Response:
        return answer_json(
            {
                "id": str(APPLICATION_ID),
                "name": "Pickomino",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": {**BOT_USER, "bot": False, "id": "1"},
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
            }
        )

    async def commands(self, request: web.Request) -> web.Response:
        body = await body_json(request)
        return answer_json(
            [{**c, "id": str(next(self.ids)), "application_id": str(APPLICATION_ID)} for c in body]
        )

    async def callback(self, request: web.Request) -> web.Response:
        arrived = time.perf_counter()
        # The driver names the clicked message and channel in the token: "<channel>.<message>.n".
        channel, source, _ = request.match_info["token"].split(".")
        body = await body_json(request)
        kind, data = int(body["type"]), body.get("data") or {}
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        message = None
        if kind == 4:
            message = self.store(channel, data)
        elif kind == 7:
            message = self.update(source, data)
        answer: dict[str, Any] = {
            "interaction": {
                "id": request.match_info["id"],
                "type": 3,
                "response_message_loading": False,
                "response_message_ephemeral": ephemeral,
            }
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = message["id"]
            answer["resource"] = {"type": kind, "message": message}
        if kind == DEFERRED_UPDATE:
            # The person sees the message change when @original is edited: that answers.
            self.deferred[request.match_info["token"]] = request.match_info["id"]
        else:
            self.answer(request.match_info["id"], Answer(arrived, kind, message, ephemeral))
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)  # as Discord: the callback's resource on request only
        return answer_json(answer)

    def answer(self, interaction_id: str, answer: Answer) -> None:
        waiting = self.answers.pop(interaction_id, None)
        if waiting is not None and not waiting.done():
            waiting.set_result(answer)

    async def edit_original(self, request: web.Request) -> web.Response:
        arrived = time.perf_counter()
        token = request.match_info["token"]
        _, source, _ = token.split(".")
        message = self.update(source, await body_json(request))
        if message is None:
            return answer_json({"message": "Unknown Message", "code": 10008}, status=404)
        interaction_id = self.deferred.pop(token, None)
        if interaction_id is not None:
            self.answer(interaction_id, Answer(arrived, DEFERRED_UPDATE, message, False))
        return answer_json(message)

    async def no_commands(self, request: web.Request) -> web.Response:
        return answer_json([])  # none yet: the bot puts its own

    async def followup(self, request: web.Request) -> web.Response:
        channel = request.match_info["token"].split(".")[0]
        return answer_json(self.store(channel, await body_json(request)))

    async def create(self, request: web.Request) -> web.Response:
        return answer_json(self.store(request.match_info["channel"], await body_json(request)))

    async def edit(self, request: web.Request) -> web.Response:
        message = self.update(request.match_info["message"], await body_json(request))
        if message is None:
            return answer_json({"message": "Unknown Message", "code": 10008}, status=404)
        return answer_json(message)

    async def delete(self, request: web.Request) -> web.Response:
        if self.messages.pop(request.match_info["message"], None) is None:
            return answer_json({"message": "Unknown Message", "code": 10008}, status=404)
        return web.Response(status=204)

    async def unknown(self, request: web.Request) -> web.Response:
        self.unknown_routes.append(f"{request.method} {request.path}")
        return answer_json({"message": "404: Not Found", "code": 0}, status=404)


# --------------------------------------------------------------------------- messages


def walk(message: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    pending = list(message.get("components") or [])
    while pending:
        component = pending.pop(0)
        found.append(component)
        pending.extend(component.get("components") or [])
    return found


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in walk(message) if c.get("type") == BUTTON and not c.get("disabled")]


def pick(message: dict[str, Any], action: str) -> str | None:
    """The custom_id of the first enabled button for `action` (e.g. "start", "again")."""
    for button in buttons(message):
        if f":{action}:" in button.get("custom_id", "") + ":":
            return str(button["custom_id"])
    return None


def to_move(message: dict[str, Any], players: list[int]) -> int:
    """Whose turn the message shows."""
    text = "\n".join(str(c.get("content", "")) for c in walk(message) if c.get("type") == 10)
    for player in players:
        if t("pickomino.turn_of", name=user_payload(player)["global_name"]) in text:
            return player
    raise AssertionError(f"cannot tell whose turn it is from {text!r}")


def choose_move(message: dict[str, Any]) -> str:
    """A simple legal move: keep the best face, else claim, else roll."""
    enabled = buttons(message)
    keeps = {(b.get("emoji") or {}).get("name"): b for b in enabled if ":keep:" in b["custom_id"]}
    for face in KEEP_ORDER:
        if face in keeps:
            return str(keeps[face]["custom_id"])
    for button in enabled:
        if ":claim:" in button["custom_id"]:
            return str(button["custom_id"])
    for button in enabled:
        if button["custom_id"].endswith(":roll"):
            return str(button["custom_id"])
    raise AssertionError(f"no move offered: {[b.get('custom_id') for b in enabled]}")


# --------------------------------------------------------------------------- the players

MOVE, GAME_OVER, LOBBY, REFUSED = "move", "game over", "lobby", "refused"


@dataclass(slots=True)
class Table:
    channel_id: int
    players: list[int]
    message: dict[str, Any] = field(default_factory=dict)
    next_click: tuple[int, str, str] | None = None  # user, custom_id, kind


@dataclass(slots=True)
class Sample:
    kind: str
    seconds: float


class Players:
    """The people at the tables: they click what the live message offers."""

    def __init__(self, discord: LoopbackDiscord) -> None:
        self.discord = discord
        self.serial = itertools.count(1)

    async def deliver(self, payload: dict[str, Any]) -> tuple[float, Answer]:
        """Send an INTERACTION_CREATE; wait for its interaction response."""
        answer = asyncio.get_running_loop().create_future()
        self.discord.answers[payload["id"]] = answer
        sent = time.perf_counter()
        await self.discord.dispatch("INTERACTION_CREATE", payload)
        return sent, await asyncio.wait_for(answer, CLICK_TIMEOUT_SECONDS)

    def plan(self, table: Table) -> None:
        """Decide the next click from the table's message, as its players see it."""
        message = table.message
        again = pick(message, "again")
        if again is not None:  # over: the first player plays again on the final message
            table.next_click = (table.players[0], again, LOBBY)
            return
        start = pick(message, "start")
        if start is not None:  # the host (who opened it, or played again) starts
            table.next_click = (table.players[0], start, LOBBY)
            return
        table.next_click = (to_move(message, table.players), choose_move(message), MOVE)

    async def click(self, table: Table, since: float | None = None) -> Sample:
        """Deliver the planned click; return its time (from `since`, if given)."""
        assert table.next_click is not None
        user_id, custom_id, kind = table.next_click
        payload = click_payload(user_id, table.message, custom_id, next(self.serial))
        sent, answer = await self.deliver(payload)
        elapsed = answer.at - (since if since is not None else sent)
        if answer.ephemeral or answer.message is None:
            kind = REFUSED  # the plan was wrong; plan again on the same message
        else:
            table.message = answer.message
            if kind == MOVE and pick(answer.message, "again") is not None:
                kind = GAME_OVER
        self.plan(table)
        return Sample(kind, elapsed)

    async def open(self, table: Table) -> None:
        """/pickomino start, the others join, and the next click planned."""
        host, *others = table.players
        _, answer = await self.deliver(
            start_command("pickomino", host, table.channel_id, next(self.serial))
        )
        assert answer.message is not None, "/pickomino start was not answered with a lobby"
        table.message = answer.message
        for player in others:
            custom_id = pick(table.message, "join")
            assert custom_id is not None, "the lobby has no Join"
            table.next_click = (player, custom_id, LOBBY)
            await self.click(table)
        self.plan(table)


async def closed_loop(
    players: Players, tables: list[Table], clicks: int, in_flight: int, order: random.Random
) -> tuple[list[Sample], float]:
    free = list(tables)
    order.shuffle(free)
    samples: list[Sample] = []
    started = 0

    async def worker() -> None:
        nonlocal started
        while started < clicks:
            started += 1
            table = free.pop(order.randrange(len(free)))
            samples.append(await players.click(table))
            free.append(table)

    began = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    return samples, time.perf_counter() - began


async def open_loop(
    players: Players, tables: list[Table], clicks: int, rate: float, order: random.Random
) -> tuple[list[Sample], float]:
    free = list(tables)
    samples: list[Sample] = []
    pending: set[asyncio.Task[None]] = set()
    skipped = 0

    async def one(table: Table, due: float) -> None:
        samples.append(await players.click(table, since=due))
        free.append(table)

    began = time.perf_counter()
    for index in range(clicks):
        due = began + index / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        if not free:
            skipped += 1
            continue
        table = free.pop(order.randrange(len(free)))
        task = asyncio.create_task(one(table, due))
        pending.add(task)
        task.add_done_callback(pending.discard)
    await asyncio.gather(*pending)
    if skipped:
        print(f"  (open loop: {skipped} arrivals found every table busy)")
    return samples, time.perf_counter() - began


async def open_tables(players: Players, tables: list[Table], in_flight: int) -> None:
    gate = asyncio.Semaphore(in_flight)

    async def one(table: Table) -> None:
        async with gate:
            await players.open(table)

    await asyncio.gather(*(one(table) for table in tables))


# --------------------------------------------------------------------------- the bot


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system time of a process and all its threads so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@contextlib.asynccontextmanager
async def bot_process(
    bot_dir: Path, api_base: str, gateway: str, folder: Path
) -> AsyncIterator[asyncio.subprocess.Process]:
    """`python -m bot` of the checkout `bot_dir`, pointed at the stand-in."""
    own_python = bot_dir / ".venv" / "bin" / "python"
    python = str(own_python) if own_python.exists() else sys.executable
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DISCORD_", "DATABASE_", "HEALTH_", "SHARD_", "LOG_"))
    }
    environment.update(
        DISCORD_TOKEN="bench-token",
        DATABASE_URL=f"sqlite:///{folder / 'bench.db'}",
        DISCORD_API_BASE=api_base,
        DISCORD_GATEWAY_URL=gateway,
        BOT_STEP_SECONDS="0",
        EMOJI_SYNC="false",
        LOG_LEVEL="INFO",
        PYTHONPATH=str(bot_dir),
    )
    with (folder / "bot.log").open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            python,
            "-m",
            "bot",
            cwd=bot_dir,
            env=environment,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=log,
        )
    try:
        yield process
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 20)
            except TimeoutError:
                process.kill()
                await process.wait()


@dataclass(slots=True)
class Run:
    bot_dir: Path
    figures: dict[str, float]
    problems: list[str]


async def run_once(args: argparse.Namespace, bot_dir: Path, seed: int) -> Run:
    """A fresh bot and database: open the games, warm up, measure one window."""
    order = random.Random(seed)
    channels = [FIRST_CHANNEL + n for n in range(args.games)]
    discord = LoopbackDiscord(channels)
    runner = web.AppRunner(discord.app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        with tempfile.TemporaryDirectory(prefix="bench-clicks-") as name:
            folder = Path(name)
            api, gateway = f"http://127.0.0.1:{port}/api/v10", f"ws://127.0.0.1:{port}/gateway"
            async with bot_process(bot_dir, api, gateway, folder) as process:
                await asyncio.wait_for(discord.identified.wait(), BOT_START_SECONDS)
                await asyncio.sleep(0.5)  # READY handled, start-up tasks done
                players = Players(discord)
                people = itertools.count(FIRST_USER)
                tables = [
                    Table(channel, [next(people) for _ in range(PLAYERS_PER_GAME)])
                    for channel in channels
                ]
                await open_tables(players, tables, max(args.in_flight, 10))
                figures: dict[str, float] = {}
                for count, measured in ((args.warmup, False), (args.clicks, True)):
                    bot_cpu, own_cpu = cpu_seconds(process.pid), own_cpu_seconds()
                    if args.rate > 0:
                        samples, elapsed = await open_loop(players, tables, count, args.rate, order)
                    else:
                        samples, elapsed = await closed_loop(
                            players, tables, count, args.in_flight, order
                        )
                    if measured:
                        figures = window_figures(samples, elapsed)
                        user, system = cpu_seconds(process.pid)
                        figures["bot_user_ms"] = 1000 * (user - bot_cpu[0]) / len(samples)
                        figures["bot_system_ms"] = 1000 * (system - bot_cpu[1]) / len(samples)
                        figures["bot_cpu_ms"] = figures["bot_user_ms"] + figures["bot_system_ms"]
                        figures["driver_cpu_ms"] = (
                            1000 * (own_cpu_seconds() - own_cpu) / len(samples)
                        )
            log = (folder / "bot.log").read_text(errors="replace")
            if args.bot_log:
                Path(args.bot_log).write_text(log)
    finally:
        await runner.cleanup()
    problems = [f"the bot called {route}" for route in sorted(set(discord.unknown_routes))]
    lines = log.splitlines()
    bad = [i for i, line in enumerate(lines) if "Traceback" in line or " ERROR " in line]
    if bad:
        # The first error's record and what follows it: a traceback's first line alone
        # says nothing of where it came from.
        first = "\n    ".join(lines[bad[0] : bad[0] + 25])
        problems.append(f"{len(bad)} error lines in the bot's log, first:\n    {first}")
    return Run(bot_dir, figures, problems)


def window_figures(samples: list[Sample], elapsed: float) -> dict[str, float]:
    result: dict[str, float] = {"clicks_per_second": len(samples) / elapsed}
    for kind in (MOVE, GAME_OVER, LOBBY, REFUSED):
        times = [s.seconds for s in samples if s.kind == kind]
        if times:
            result[f"{kind} n"] = len(times)
            result[f"{kind} p50"] = 1000 * statistics.median(times)
            result[f"{kind} p99"] = 1000 * percentile(times, 0.99)
    return result


def report(args: argparse.Namespace, bot_dir: Path, runs: list[Run]) -> str:
    arrival = f"open loop at {args.rate:.0f}/s" if args.rate > 0 else f"{args.in_flight} in flight"
    windows = [run.figures for run in runs]
    lines = [
        f"bot {bot_dir}: {args.games} games, {arrival}; "
        f"median of {len(windows)} runs of {args.clicks} clicks"
    ]

    def median(key: str) -> float:
        return statistics.median(w[key] for w in windows)

    cpu = median("bot_cpu_ms")
    lines.append(
        f"  bot CPU/click {cpu:.3f} ms (user {median('bot_user_ms'):.3f}, system "
        f"{median('bot_system_ms'):.3f}): {1000 / cpu:.0f} clicks/s for one bot process"
    )
    lines.append(f"  stand-in + players CPU/click {median('driver_cpu_ms'):.3f} ms")
    lines.append(f"  wall clock: {median('clicks_per_second'):.0f} clicks/s")
    for kind in (MOVE, GAME_OVER, LOBBY, REFUSED):
        present = [w for w in windows if f"{kind} n" in w]
        if not present:
            continue
        count = sum(w[f"{kind} n"] for w in present)
        p50 = statistics.median(w[f"{kind} p50"] for w in present)
        p99 = statistics.median(w[f"{kind} p99"] for w in present)
        lines.append(f"  {kind:9} {count:6.0f} clicks: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    for problem in sorted({p for run in runs for p in run.problems}):
        lines.append(f"  ! {problem}")
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> None:
    bot_dirs = [Path(d).resolve() for d in args.bot_dir] or [Path(__file__).resolve().parent.parent]
    runs: dict[Path, list[Run]] = {d: [] for d in bot_dirs}
    for repeat in range(args.repeats):
        for bot_dir in bot_dirs:  # in turns, so that both see the same machine
            result = await run_once(args, bot_dir, args.seed + repeat)
            runs[bot_dir].append(result)
            cpu = result.figures["bot_cpu_ms"]
            print(
                f"  run {repeat + 1} {bot_dir.name}: bot CPU/click {cpu:.3f} ms, "
                f"{result.figures['clicks_per_second']:.0f} clicks/s",
                flush=True,
            )
    for bot_dir in bot_dirs:
        print(report(args, bot_dir, runs[bot_dir]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=positive, default=500)
    parser.add_argument("--in-flight", type=positive, default=1, help="closed loop: clicks at once")
    parser.add_argument("--rate", type=float, default=0, help="open loop: clicks per second")
    parser.add_argument("--clicks", type=positive, default=3000, help="clicks per measured window")
    parser.add_argument("--repeats", type=positive, default=3, help="runs, each with a fresh bot")
    parser.add_argument("--warmup", type=count, default=500, help="clicks before measuring")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-log", help="keep the (last) bot's log in this file")
    parser.add_argument(
        "--bot-dir",
        action="append",
        default=[],
        help="checkout whose bot to run (repeat to compare; default: this one)",
    )
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
