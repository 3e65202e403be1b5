"""python -m bot [--sync]: read the configuration, set up logging, run until a signal.

python -m bot ratings rebuild: build every community's skill ratings again from the
stored games, in one transaction, and say what was done (an admin runs it once, or to
repair; the bot does it by itself at the start-up that adds the rating tables)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import time

import aiohttp
import discord

from bot.app.takeover import take_over
from bot.config import ConfigError, LogFormat, Settings, load_settings
from bot.history.rating_sql import Rebuilt, rebuild_all
from bot.observability.logs import JsonFormatter
from bot.storage import apply_migrations, open_database
from bot.storage.protocols import DatabaseUnavailable, StorageError

log = logging.getLogger("bot")

EXIT_CONFIG = 2
EXIT_UNREACHABLE = 1
EXIT_INTERRUPTED = 130
# How long a thread may hold the GIL while another waits for it. Computer players'
# moves, hints and end pictures are computed on threads, off the event loop; at
# Python's default of 5 ms, every wake-up of the loop during such work waited about
# 5 ms for the GIL (p99 10 ms), at 1 ms about 1.3 ms, for 3% more time on the thread
# (measured with a CPU-bound thread beside a loop ticking every 2 ms).
GIL_SWITCH_SECONDS = 0.001


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the dice games bot.")
    parser.add_argument(
        "--sync",
        action="store_true",
        help="sync the application commands even if they did not change",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    ratings = commands.add_parser(
        "ratings",
        help="the skill ratings: 'ratings rebuild' builds them again from the stored games",
        description="Build every community's skill ratings again from the stored games.",
    )
    ratings.add_argument("action", choices=["rebuild"], help="what to do with them")
    return parser.parse_args(argv)


def rebuild_ratings() -> int:
    """`python -m bot ratings rebuild`: DATABASE_URL's ratings built again from history,
    in one transaction (broken off, they stay as they were); one line of what was done."""
    try:
        settings = load_settings(require_token=False)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    started = time.perf_counter()
    try:
        rebuilt = asyncio.run(_rebuild(settings.database_url))
    except StorageError as error:
        # Unreachable, refused, or a SQLite file the running bot holds: stop it first.
        print(f"error: database: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        print("error: interrupted; the ratings are as they were", file=sys.stderr)
        return EXIT_INTERRUPTED
    seconds = time.perf_counter() - started
    print(
        f"ratings rebuilt: {rebuilt.rated} of {rebuilt.games} finished games rated, "
        f"in {rebuilt.communities} communities and games ({seconds:.1f} s)"
    )
    return 0


async def _rebuild(database_url: str) -> Rebuilt:
    db = await open_database(database_url, exclusive=True)
    try:
        await apply_migrations(db)
        return await rebuild_all(db)
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.command == "ratings":
        return rebuild_ratings()
    sys.setswitchinterval(GIL_SWITCH_SECONDS)  # clicks wait less behind computed moves
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    setup_logging(settings)
    try:
        asyncio.run(run(settings, force_sync=args.sync))
    except ConfigError as error:  # found at start-up: HEALTH_ADDR cannot be listened on
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except discord.LoginFailure:
        print(
            "error: Discord refused DISCORD_TOKEN; copy the token again from "
            "https://discord.com/developers/applications (Bot > Reset Token) into .env.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    except DatabaseUnavailable as error:
        # No server answered there (refused, no such host, no answer in time): perhaps
        # down for now, so the "try again later" status, as for Discord.
        print(f"error: database: {error}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except StorageError as error:
        # The database refused us (password, no such database) or a SQLite file in use.
        print(f"error: database: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except (aiohttp.ClientConnectionError, OSError) as error:
        # A firewall, a DNS failure or a proxy that is down: one line, not a traceback.
        print(
            f"error: cannot reach Discord ({settings.discord_api_base or 'discord.com'}): {error}. "
            "Check the network, or DISCORD_API_BASE / DISCORD_GATEWAY_URL if set.",
            file=sys.stderr,
        )
        return EXIT_UNREACHABLE
    return 0


def setup_logging(settings: Settings) -> None:
    """discord.py's handler on stderr, with its colours or, for LOG_FORMAT=json, as JSON."""
    formatter = JsonFormatter() if settings.log_format is LogFormat.JSON else discord.utils.MISSING
    discord.utils.setup_logging(
        formatter=formatter, level=logging.getLevelName(settings.log_level), root=True
    )


async def run(settings: Settings, *, force_sync: bool = False) -> None:
    """Run the bot until it stops or SIGTERM/SIGINT arrives, then close it cleanly."""
    # First of all, before the bot is imported: the clicks a killed predecessor was
    # holding are acknowledged, with what is left of their 3 s (bot.app.takeover).
    takeover = await take_over(settings)
    from bot.app.client import create_bot

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    bot = create_bot(settings, force_sync=force_sync, takeover=takeover)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.token), name="discord-client")
        stopper = asyncio.create_task(stop.wait(), name="signal-wait")
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("signal received")
        stopper.cancel()
        await bot.close()
        if runner in done:
            runner.result()  # a login failure or crash is raised here
        else:
            runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await runner


if __name__ == "__main__":
    sys.exit(main())
