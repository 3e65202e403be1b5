"""Picker's three-player tables, kept in a benchmark's cache folder before its bots start.

A bot started with CACHE_DIR loads them from there, or builds them (45 s of a core) and
keeps them. Built by the bots under measure, they would be measured too: two processes
building at once in a soak's first minute put its p99 at 2,016 ms (1,000 games, against
331 ms with the folder filled). So a benchmark fills the folder first, once for the code
of the checkout it runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_KEEP = """
from pathlib import Path
from bot.games.picker.ai import exact
path = Path({cache!r}) / exact.CACHE_NAME
if not path.exists():
    print("building Picker's tables for", path, "(about 45 s, once)", flush=True)
    exact.TABLES.load_or_build(Path({cache!r}))
"""


def run_in(bot_dir: Path, code: str) -> str:
    """What `code` prints, run by the checkout's own Python (or this one) in `bot_dir`;
    SystemExit with its last line of error if it fails."""
    own_python = bot_dir / ".venv" / "bin" / "python"
    python = str(own_python) if own_python.exists() else sys.executable
    done = subprocess.run(
        [python, "-c", code],
        cwd=bot_dir,
        env={**os.environ, "PYTHONPATH": str(bot_dir)},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"error: {bot_dir}: {last}")
    return done.stdout


def keep_picker_tables(bot_dir: Path, cache: Path) -> str:
    """Build the tables of `bot_dir`'s code into `cache` unless they are there; what it
    printed (a line when it builds, else nothing)."""
    return run_in(bot_dir, _KEEP.format(cache=str(cache)))
