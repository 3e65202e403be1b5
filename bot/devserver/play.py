"""`make play`: the real bot process against the stand-in, and the page, on one port.

`python -m bot.devserver [--host 127.0.0.1] [--port 8080] [--data data] [--real-discord]`
starts the stand-in (Discord's REST API and gateway, and the page at `/`), then the bot
as a child process (`python -m bot`, its own SQLite file `data/play.db`, a token made up
for this run, no network), and restarts the bot if it dies. `--real-discord` gives the
stand-in Discord's behaviours (`Realism.discord()`: latency, rate limits, permissions,
application emojis, the OpenAPI spec), `--without rate_limits` (and so on) all but some;
by default it is the ideal Discord. The table (the games as a Discord Activity) is on
when its page is built (`make page`): the bot gets a client secret, ACTIVITY_ADDR and the
stand-in's public key, and the stand-in's proxy (standin/proxy.py) plays Discord's client
and its proxy on a port of its own. The stand-in's world (people, channels, messages,
pictures) is kept in `data/play-world.json`, so a new start finds the games where they
were. Ctrl-C (or SIGTERM) stops the bot cleanly, then the server; the turn clocks stand
still until the next start (`pause`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import dataclasses
import importlib.util
import logging
import os
import secrets
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

from bot.config.address import parse_host_port
from bot.devserver import pause, world
from bot.devserver.page import Page
from bot.devserver.standin import IDEAL, FakeDiscord, Realism
from bot.devserver.standin.proxy import ActivityProxy
from bot.table.assets import built_page

log = logging.getLogger("bot.devserver")

DEFAULT_PORT = 8080
# The world is written once the table has been quiet this long (a game's clicks come
# faster), and at least this often while it is busy, and at shutdown.
QUIET_SECONDS = 2.0
SAVE_AT_LEAST_EVERY = 30.0
STOP_TIMEOUT = 10.0
PR_SET_PDEATHSIG = 1
NO_TABLE = (
    "note: the table's page is not built, so this runs without the table: run `make page` "
    "(needs Node.js 18 or newer) and `make play` again"
)
# Variables of the developer's environment that must not reach the local bot: its
# Discord, its database and its extra servers are the ones this command chooses.
BEHAVIOURS = tuple(field.name for field in dataclasses.fields(Realism))
CLEARED = (
    "DEV_GUILD_ID",
    "HEALTH_ADDR",
    "HEARTBEAT_FILE",
    "SHARD_COUNT",
    "SHARD_IDS",
    "RULES_URL",
    "DISCORD_CLIENT_SECRET",
    "ACTIVITY_ADDR",
    "DISCORD_PUBLIC_KEY",
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot.devserver",
        description="Play the bot's games in a browser, on a local stand-in for Discord.",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get("PLAY_PORT", DEFAULT_PORT)),
        help="port of the page (default: %(default)s, or PLAY_PORT)",
    )  # fmt: skip
    parser.add_argument(
        "--data", type=Path, default=Path("data"),
        help="directory of play.db and play-world.json (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--real-discord", action="store_true",
        help="behave as Discord does: 80 ms round trips, rate limits, permissions, the "
        "application's own emojis, bodies checked against Discord's OpenAPI spec",
    )  # fmt: skip
    parser.add_argument(
        "--without", action="append", default=[], choices=BEHAVIOURS, metavar="BEHAVIOUR",
        help=f"with --real-discord, leave this one out ({', '.join(BEHAVIOURS)}); repeatable",
    )  # fmt: skip
    parser.add_argument(
        "--activity-addr", metavar="HOST:PORT",
        help="where the bot's table server listens, behind the stand-in's proxy "
        "(default: a free port of the loopback)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.activity_addr is not None:
        try:
            parse_host_port(args.activity_addr)
        except ValueError as error:
            parser.error(f"--activity-addr {error}")
    if not 0 <= args.port <= 65535:
        parser.error("--port must be between 0 and 65535")
    if args.without and not args.real_discord:
        parser.error("--without goes with --real-discord")
    return args


def realism(args: argparse.Namespace) -> Realism:
    """The stand-in's behaviours the options ask for."""
    if not args.real_discord:
        return IDEAL
    off: dict[str, Any] = {name: None if name == "latency" else False for name in args.without}
    if "openapi" not in off and importlib.util.find_spec("jsonschema") is None:
        # `make play` installs what the bot runs on; the spec's validator is a dev tool.
        print(
            "note: --real-discord checks the bot's requests against Discord's OpenAPI spec "
            "with jsonschema, which `make test` installs; left out this time",
            file=sys.stderr,
        )
        off["openapi"] = False
    return dataclasses.replace(Realism.discord(), **off)


class BotChild:
    """The bot process, started again whenever it stops without being asked to."""

    def __init__(self, fake: FakeDiscord, data: Path, table: dict[str, str] | None = None) -> None:
        self.fake = fake
        self.data = data
        self.table = table or {}  # the table's settings, when it is on
        self.process: asyncio.subprocess.Process | None = None
        self.stopping = False
        self._task: asyncio.Task[None] | None = None

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in CLEARED}
        env.update(self.fake.env())
        env.update(self.table)
        env["DATABASE_URL"] = f"sqlite:///{(self.data / 'play.db').resolve()}"
        env.setdefault("LOG_LEVEL", "ERROR")
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        pause = 0.5
        while not self.stopping:
            started = time.monotonic()
            # Its own session: Ctrl-C in the terminal reaches only us, and we stop it in
            # order. The working directory holds no developer's .env.
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot",
                cwd=self.data, env=self.env(), stdin=asyncio.subprocess.DEVNULL,
                start_new_session=True, preexec_fn=_die_with_parent,
            )  # fmt: skip
            with contextlib.suppress(OSError):  # for a test that kills the bot
                (self.data / "play-bot.pid").write_text(str(self.process.pid))
            code = await self.process.wait()
            if self.stopping:
                return
            pause = 0.5 if time.monotonic() - started > 30 else min(pause * 2, 15.0)
            print(f"The bot stopped (exit {code}); starting it again in {pause:g} s.", flush=True)
            await asyncio.sleep(pause)

    async def stop(self) -> None:
        self.stopping = True
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            try:
                await asyncio.wait_for(process.wait(), STOP_TIMEOUT)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def _die_with_parent() -> None:
    """Linux: the bot gets SIGTERM if this server dies without stopping it."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class WorldKeeper:
    """Writes the stand-in's world a moment after it changes; forgets old records."""

    def __init__(self, fake: FakeDiscord, path: Path) -> None:
        self.fake = fake
        self.path = path
        self.dirty = asyncio.Event()
        fake.listeners.append(self.dirty.set)

    async def run(self) -> None:
        while True:
            await self.dirty.wait()
            first_change = time.monotonic()
            while time.monotonic() - first_change < SAVE_AT_LEAST_EVERY:
                self.dirty.clear()
                try:
                    await asyncio.wait_for(self.dirty.wait(), QUIET_SECONDS)
                except TimeoutError:
                    break  # quiet
            self.dirty.clear()
            self.save()

    def save(self) -> None:
        trim(self.fake)
        try:
            world.save(self.fake, self.path)
        except (OSError, TypeError, ValueError) as error:
            print(f"warning: cannot write {self.path}: {error}", file=sys.stderr, flush=True)


def trim(fake: FakeDiscord) -> None:
    """The stand-in keeps every request for tests; a long evening needs only recent ones."""
    del fake.requests[:-1000]
    del fake.gateway_log[:-1000]
    fake.forget_interactions(keep=500)
    fake.rejections.clear()  # they are the bot's business in tests; here the log says
    fake.unknown_routes.clear()


def table_settings(fake: FakeDiscord, activity_addr: str) -> dict[str, str]:
    """What turns the bot's table on against the stand-in: the application's client
    secret, where the table listens, and the key the proxy signs with."""
    return {
        "DISCORD_CLIENT_SECRET": fake.client_secret,
        "ACTIVITY_ADDR": activity_addr,
        "DISCORD_PUBLIC_KEY": fake.public_key,
    }


def table_proxy(fake: FakeDiscord, activity_addr: str | None = None) -> ActivityProxy | None:
    """The stand-in's proxy in front of the bot's table server, which listens on
    `activity_addr`, by default a free port of the loopback (only the proxy reaches it);
    None, said in one line, when the table's page is not built."""
    if built_page() is None:
        print(NO_TABLE, flush=True)
        return None
    if activity_addr is None:
        host = "127.0.0.1"
        activity_addr = f"{host}:{free_port(host)}"
    return ActivityProxy(fake, activity_addr, sign=True)


def free_port(host: str) -> int:
    """A port nobody listens on now, for the bot's table server (the proxy forwards
    there; the bot binds it each time it starts)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


async def serve(args: argparse.Namespace) -> int:
    data: Path = args.data
    data.mkdir(parents=True, exist_ok=True)
    fake = FakeDiscord(
        token=f"play.{secrets.token_urlsafe(24)}",
        players=(),
        channel_names=("dice-games",),
        bot_name="Dice Games",
        host=args.host,
        port=args.port,
        realism=realism(args),
        # The application has Activities enabled; the bot serves the table only when
        # its page is built (without it, the bot keeps Discord's Entry Point as it is).
        activities=True,
    )
    world_path = data / "play-world.json"
    try:
        found = world.load(fake, world_path)
    except (ValueError, KeyError, TypeError) as error:
        print(f"error: {world_path}: {error}", file=sys.stderr)
        return 2
    proxy = table_proxy(fake, args.activity_addr)
    page = Page(fake, proxy)
    try:
        await fake.start(setup=page.setup)
        if proxy is not None:
            proxy.host, proxy.chat_port = args.host, fake.port
            await proxy.start()
    except OSError as error:
        print(
            f"error: cannot listen on {args.host}:{args.port}: {error.strerror or error}",
            file=sys.stderr,
        )
        await fake.close()
        return 2
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"warning: listening on {args.host}: anyone who can reach this machine on port "
            f"{fake.port} can play as anyone and read every channel of this table.",
            file=sys.stderr,
        )
    keeper = WorldKeeper(fake, world_path)
    paused, moved = await pause.resume(data, data / "play.db", time.time())
    child = BotChild(fake, data, table_settings(fake, proxy.upstream) if proxy else None)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    saving = loop.create_task(keeper.run())
    child.start()
    where = "found the games where they were" if found else "a new table"
    if moved:
        where += f"; their turn clocks stood still for the {paused:.0f} s it was stopped"
    if args.real_discord:
        where += "; Discord's latency, rate limits and rules"
    print(f"The table is open at {fake.base_url}/ ({where}; Ctrl-C stops it).", flush=True)
    try:
        await stop.wait()
    finally:
        print("Stopping the bot and the table…", flush=True)
        await child.stop()
        pause.record_stop(data, time.time())
        saving.cancel()
        keeper.save()
        await page.close()
        if proxy is not None:
            await proxy.close()
        await fake.close()
        with contextlib.suppress(OSError):
            (data / "play-bot.pid").unlink()
    print("Stopped.", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    return asyncio.run(serve(args))
