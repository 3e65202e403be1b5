"""A container health check for a process without an HTTP port: the bot touches a file
while it is connected to Discord, and `python -m bot.health FILE` says whether it did so
lately (exit 0) or not (exit 1, one `error:` line).

compose.yaml sets HEARTBEAT_FILE and runs the check; without HEARTBEAT_FILE nothing is
written.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path

BEAT_SECONDS = 15.0
MAX_AGE_SECONDS = 60.0


async def keep_beating(
    path: Path, connected: Callable[[], bool], every: float = BEAT_SECONDS
) -> None:
    """Touch `path` every `every` seconds while `connected()` says so (until cancelled)."""
    while True:
        if connected():
            path.touch()
        await asyncio.sleep(every)


def check(path: Path, max_age: float = MAX_AGE_SECONDS, now: float | None = None) -> str | None:
    """None if `path` was touched within `max_age` seconds, else what is wrong."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except FileNotFoundError:
        return f"{path} does not exist: the bot has not connected to Discord yet"
    if age > max_age:
        return f"no heartbeat for {age:.0f} s (more than {max_age:.0f} s): not connected"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.health", description=__doc__)
    parser.add_argument("file", type=Path, help="the HEARTBEAT_FILE the bot touches")
    parser.add_argument("--max-age", type=float, default=MAX_AGE_SECONDS, help="seconds")
    arguments = parser.parse_args(argv)
    problem = check(arguments.file, arguments.max_age)
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
