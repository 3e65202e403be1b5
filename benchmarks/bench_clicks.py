"""Benchmark: button clicks through the real bot, answered over real HTTP.

The production bot (discord.py's interaction parsing, the cog, the session service,
SQLite in WAL mode in a temporary file) talks to a loopback stand-in of Discord's REST
API that runs in a process of its own: every interaction response is a real aiohttp
request, as discord.py sends it in production. A click's time runs from its
INTERACTION_CREATE (handed to discord.py as the gateway would) to the end of its
handling, after the response came back from the stand-in.

Each of `--games` tables (three players) plays whole games: the players' moves, the
click that ends the game (which also writes its history), then Play again and Start.
Figures are given apart for moves, game-over clicks and lobby clicks. Clicks arrive
closed-loop (`--in-flight` at a time, a new one as soon as one is answered) or
open-loop (`--rate` per second on a fixed schedule, latency counted from the scheduled
instant). After a warm-up, `--repeats` windows of `--clicks` clicks are measured and
each figure is the median over the windows.

Usage: python -m benchmarks.bench_clicks [--games 500] [--in-flight 1] [--rate 0]
       [--clicks 3000] [--repeats 5] [--warmup 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.storage.sessions import encode

PLAYERS_PER_GAME = 3
GUILD_ID = 800_000_000_000_000_001
FIRST_CHANNEL = 700_000_000_000_000_001
APPLICATION_ID = 900_000_000_000_000_001
EPHEMERAL = 1 << 6
BUTTON, STRING_SELECT = 2, 3
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)
TIMESTAMP = "2026-01-01T00:00:00.000000+00:00"
KEEP_ORDER = ("🪱", "6️⃣", "5️⃣", "4️⃣", "3️⃣", "2️⃣", "1️⃣")
BOT_USER = {
    "id": str(APPLICATION_ID),
    "username": "pickomino",
    "global_name": None,
    "discriminator": "0000",
    "avatar": None,
    "bot": True,
}


# --------------------------------------------------------------------------- the stand-in


def answer_json(data: Any, status: int = 200) -> web.Response:
    # discord.py reads a body as JSON only if the content type is exactly this (no charset).
    return web.Response(
        body=encode(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class LoopbackDiscord:
    """Just enough of Discord's REST API for the bot to log in and answer clicks; it
    keeps the messages, so the players see what the bot showed."""

    def __init__(self) -> None:
        self.ids = itertools.count(1_000_000_000_000_000_000)
        self.messages: dict[str, dict[str, Any]] = {}

    def app(self) -> web.Application:
        app = web.Application()
        route = app.router
        route.add_get("/api/v10/users/@me", self.me)
        route.add_get("/api/v10/oauth2/applications/@me", self.application)
        route.add_put("/api/v10/applications/{app}/commands", self.commands)
        route.add_put("/api/v10/applications/{app}/guilds/{guild}/commands", self.commands)
        route.add_post("/api/v10/interactions/{id}/{token}/callback", self.callback)
        route.add_post("/api/v10/webhooks/{app}/{token}", self.followup)
        route.add_post("/api/v10/channels/{channel}/messages", self.create)
        route.add_patch("/api/v10/channels/{channel}/messages/{message}", self.edit)
        route.add_get("/api/v10/channels/{channel}/messages/{message}", self.get)
        return app

    def store(self, channel: str, data: dict[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {
            "id": str(next(self.ids)),
            "channel_id": channel,
            "guild_id": str(GUILD_ID),
            "author": BOT_USER,
            "content": data.get("content") or "",
            "embeds": data.get("embeds") or [],
            "components": data.get("components") or [],
            "flags": int(data.get("flags") or 0),
            "type": 0,
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "pinned": False,
        }
        if not message["flags"] & EPHEMERAL:  # players never click an ephemeral answer here
            self.messages[message["id"]] = message
        return message

    def update(self, message_id: str, data: dict[str, Any]) -> dict[str, Any] | None:
        message = self.messages.get(message_id)
        if message is not None:
            for key in ("content", "embeds", "components", "flags"):
                if key in data:
                    message[key] = data[key] if data[key] is not None else []
        return message

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
        body = await request.json()
        return answer_json(
            [{**c, "id": str(next(self.ids)), "application_id": str(APPLICATION_ID)} for c in body]
        )

    async def callback(self, request: web.Request) -> web.Response:
        # The driver names the clicked message and channel in the token: "<channel>.<message>.n".
        channel, source, _ = request.match_info["token"].split(".")
        body = await request.json()
        kind, data = int(body["type"]), body.get("data") or {}
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
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            }
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = message["id"]
            answer["resource"] = {"type": kind, "message": message}
        return answer_json(answer)

    async def followup(self, request: web.Request) -> web.Response:
        channel = request.match_info["token"].split(".")[0]
        return answer_json(self.store(channel, await request.json()))

    async def create(self, request: web.Request) -> web.Response:
        return answer_json(self.store(request.match_info["channel"], await request.json()))

    async def edit(self, request: web.Request) -> web.Response:
        message = self.update(request.match_info["message"], await request.json())
        if message is None:
            return answer_json({"message": "Unknown Message", "code": 10008}, status=404)
        return answer_json(message)

    async def get(self, request: web.Request) -> web.Response:
        message = self.messages.get(request.match_info["message"])
        if message is None:
            return answer_json({"message": "Unknown Message", "code": 10008}, status=404)
        return answer_json(message)


async def serve() -> None:
    """The stand-in's process: print the port, serve until stdin closes."""
    runner = web.AppRunner(LoopbackDiscord().app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    print(port, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await runner.cleanup()


@contextlib.asynccontextmanager
async def stand_in() -> AsyncIterator[str]:
    """Start the stand-in process; yield its API base URL."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "benchmarks.bench_clicks",
        "--serve",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None and process.stdin is not None
    try:
        port = int(await process.stdout.readline())
        yield f"http://127.0.0.1:{port}/api/v10"
    finally:
        process.stdin.close()
        await process.wait()


# --------------------------------------------------------------------------- payloads


def user_payload(user_id: int) -> dict[str, Any]:
    name = f"player{user_id % 100_000}"
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
    }


def interaction_payload(
    user_id: int, kind: int, channel_id: int, token: str, serial: int
) -> dict[str, Any]:
    """An INTERACTION_CREATE in a server text channel, as the gateway delivers it."""
    return {
        "id": str(500_000_000_000_000_000 + serial),
        "application_id": str(APPLICATION_ID),
        "type": kind,
        "token": token,
        "version": 1,
        "guild_id": str(GUILD_ID),
        "guild": {"id": str(GUILD_ID), "locale": "en-US", "features": []},
        "channel_id": str(channel_id),
        "channel": {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": "pickomino",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        },
        "member": {
            "user": user_payload(user_id),
            "nick": None,
            "roles": [],
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(MEMBER_PERMISSIONS),
        },
        "app_permissions": str((1 << 53) - 1),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(GUILD_ID)},
        "context": 0,
        "attachment_size_limit": 10 * 1024 * 1024,
    }


def start_command(user_id: int, channel_id: int, serial: int) -> dict[str, Any]:
    """/pickomino start turn_timer:0"""
    payload = interaction_payload(user_id, 2, channel_id, f"{channel_id}.0.{serial}", serial)
    option = {"name": "turn_timer", "type": 4, "value": 0}
    payload["data"] = {
        "id": str(APPLICATION_ID + 1),
        "name": "pickomino",
        "type": 1,
        "options": [{"name": "start", "type": 1, "options": [option]}],
    }
    return payload


def click_payload(
    user_id: int, message: dict[str, Any], custom_id: str, serial: int
) -> dict[str, Any]:
    channel_id = int(message["channel_id"])
    token = f"{channel_id}.{message['id']}.{serial}"
    payload = interaction_payload(user_id, 3, channel_id, token, serial)
    payload["message"] = message
    payload["data"] = {"custom_id": custom_id, "component_type": BUTTON}
    return payload


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    pending = list(message.get("components") or [])
    while pending:
        component = pending.pop(0)
        if component.get("type") == BUTTON and not component.get("disabled"):
            found.append(component)
        pending.extend(component.get("components") or [])
    return found


def pick(message: dict[str, Any], action: str) -> str | None:
    """The custom_id of the first enabled button for `action` (e.g. "start", "again")."""
    for button in buttons(message):
        if f":{action}:" in button.get("custom_id", "") + ":":
            return str(button["custom_id"])
    return None


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


# --------------------------------------------------------------------------- the driver

MOVE, GAME_OVER, LOBBY = "move", "game over", "lobby"


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


class Driver:
    def __init__(self, bot: Any, api_base: str, http: aiohttp.ClientSession) -> None:
        self.bot = bot
        self.api_base = api_base
        self.http = http
        self.serial = itertools.count(1)
        self.done: dict[int, asyncio.Future[None]] = {}
        clicks = bot.platform.clicks
        original = clicks.on_click

        async def on_click(interaction: Any, ref: Any) -> None:
            try:
                await original(interaction, ref)
            finally:
                future = self.done.pop(interaction.id, None)
                if future is not None and not future.done():
                    future.set_result(None)

        clicks.on_click = on_click

    async def fetch(self, channel_id: int, message_id: int) -> dict[str, Any]:
        url = f"{self.api_base}/channels/{channel_id}/messages/{message_id}"
        async with self.http.get(url) as response:
            result: dict[str, Any] = await response.json()
            return result

    async def plan(self, table: Table) -> None:
        """Read the table's live message as the players see it; decide the next click."""
        sessions = self.bot.sessions
        session = await sessions.live(table.channel_id)
        if session is None:  # over: the first player plays again on the final message
            custom_id = pick(table.message, "again")
            assert custom_id is not None, "the final message has no Play again"
            table.next_click = (table.players[0], custom_id, LOBBY)
            return
        table.message = await self.fetch(table.channel_id, session.message_id)
        if session.status == "lobby":
            custom_id = pick(table.message, "start")
            assert custom_id is not None, "the lobby has no Start"
            table.next_click = (session.host_id, custom_id, LOBBY)
            return
        player = sessions.adapter(session.kind).current_player(session.game)
        table.next_click = (int(player), choose_move(table.message), MOVE)

    async def click(self, table: Table, since: float | None = None) -> Sample:
        """Deliver the planned click; return its time (from `since`, if given)."""
        assert table.next_click is not None
        user_id, custom_id, kind = table.next_click
        serial = next(self.serial)
        payload = click_payload(user_id, table.message, custom_id, serial)
        finished = asyncio.get_running_loop().create_future()
        self.done[int(payload["id"])] = finished
        sent = time.perf_counter()
        self.bot._connection.parse_interaction_create(payload)
        await finished
        elapsed = time.perf_counter() - (since if since is not None else sent)
        if kind == MOVE and await self.bot.sessions.live(table.channel_id) is None:
            kind = GAME_OVER
        if kind == GAME_OVER:  # the final message shows Play again
            table.message = await self.fetch(table.channel_id, int(table.message["id"]))
        await self.plan(table)
        return Sample(kind, elapsed)

    async def open(self, table: Table) -> None:
        """/pickomino start, the others join, and the next click planned."""
        host, *others = table.players
        serial = next(self.serial)
        self.bot._connection.parse_interaction_create(start_command(host, table.channel_id, serial))
        for _ in range(1000):
            session = await self.bot.sessions.live(table.channel_id)
            if session is not None and session.message_id is not None:
                break
            await asyncio.sleep(0.001)
        assert session is not None
        table.message = await self.fetch(table.channel_id, session.message_id)
        for player in others:
            custom_id = pick(table.message, "join")
            assert custom_id is not None
            table.next_click = (player, custom_id, LOBBY)
            await self.click(table)
        await self.plan(table)


async def closed_loop(
    driver: Driver, tables: list[Table], clicks: int, in_flight: int, order: random.Random
) -> tuple[list[Sample], float]:
    free = list(tables)
    order.shuffle(free)
    samples: list[Sample] = []

    async def worker() -> None:
        while len(samples) < clicks:
            table = free.pop(order.randrange(len(free)))
            samples.append(await driver.click(table))
            free.append(table)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    return samples, time.perf_counter() - started


async def open_loop(
    driver: Driver, tables: list[Table], clicks: int, rate: float, order: random.Random
) -> tuple[list[Sample], float]:
    free = list(tables)
    samples: list[Sample] = []
    pending: set[asyncio.Task[None]] = set()
    skipped = 0

    async def one(table: Table, due: float) -> None:
        samples.append(await driver.click(table, since=due))
        free.append(table)

    started = time.perf_counter()
    for index in range(clicks):
        due = started + index / rate
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
    return samples, time.perf_counter() - started


def figures(samples: list[Sample], elapsed: float) -> dict[str, float]:
    result: dict[str, float] = {"clicks_per_second": len(samples) / elapsed}
    for kind in (MOVE, GAME_OVER, LOBBY):
        times = sorted(s.seconds for s in samples if s.kind == kind)
        if times:
            result[f"{kind} n"] = len(times)
            result[f"{kind} p50"] = 1000 * statistics.median(times)
            result[f"{kind} p99"] = 1000 * times[int(0.99 * (len(times) - 1))]
    return result


async def run(args: argparse.Namespace) -> list[dict[str, float]]:
    from bot.client import DiceBot
    from bot.config import Settings
    from bot.endpoints import apply_endpoint_overrides

    order = random.Random(args.seed)
    async with stand_in() as api_base, aiohttp.ClientSession() as http:
        apply_endpoint_overrides(api_base, None)
        with tempfile.TemporaryDirectory() as folder:
            settings = Settings(
                discord_token="bench-token",  # type: ignore[arg-type]
                database_url=f"sqlite:///{Path(folder) / 'bench.db'}",
                bot_step_seconds=0.0,
            )
            bot = DiceBot(settings, rng=random.Random(args.seed))
            await bot.login("bench-token")
            try:
                driver = Driver(bot, api_base, http)
                people = itertools.count(100_000_000_000_000_001)
                tables = [
                    Table(FIRST_CHANNEL + n, [next(people) for _ in range(PLAYERS_PER_GAME)])
                    for n in range(args.games)
                ]
                for table in tables:
                    await driver.open(table)
                windows: list[dict[str, float]] = []
                for window in range(args.repeats + 1):
                    count = args.warmup if window == 0 else args.clicks
                    if args.rate > 0:
                        samples, elapsed = await open_loop(driver, tables, count, args.rate, order)
                    else:
                        samples, elapsed = await closed_loop(
                            driver, tables, count, args.in_flight, order
                        )
                    if window > 0:  # the first window warms up
                        windows.append(figures(samples, elapsed))
            finally:
                await bot.close()
    return windows


def report(args: argparse.Namespace, windows: list[dict[str, float]]) -> str:
    arrival = f"open loop at {args.rate:.0f}/s" if args.rate > 0 else f"{args.in_flight} in flight"
    lines = [
        f"{args.games} games, {arrival}; median of {len(windows)} windows of {args.clicks} clicks"
    ]
    throughput = statistics.median(w["clicks_per_second"] for w in windows)
    lines.append(f"  throughput {throughput:.0f} clicks/s")
    for kind in (MOVE, GAME_OVER, LOBBY):
        present = [w for w in windows if f"{kind} n" in w]
        if not present:
            continue
        count = sum(w[f"{kind} n"] for w in present)
        p50 = statistics.median(w[f"{kind} p50"] for w in present)
        p99 = statistics.median(w[f"{kind} p99"] for w in present)
        lines.append(f"  {kind:9} {count:6.0f} clicks: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--in-flight", type=int, default=1, help="closed loop: clicks at once")
    parser.add_argument("--rate", type=float, default=0, help="open loop: clicks per second")
    parser.add_argument("--clicks", type=int, default=3000, help="clicks per measured window")
    parser.add_argument("--repeats", type=int, default=5, help="measured windows")
    parser.add_argument("--warmup", type=int, default=1000, help="clicks before measuring")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(serve())
        return
    print(report(args, asyncio.run(run(args))))


if __name__ == "__main__":
    main()
