"""Every literal key our code passes to t() is in the English catalog."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import catalog

ROOT = Path(__file__).resolve().parents[2]
OUR_CODE = [
    "bot/render",
    "bot/sessions",
    "cogs/pickomino/_ai.py",
    "cogs/pickomino/_cog.py",
    "cogs/pickomino/_clicks.py",
    "cogs/pickomino/_live.py",
    "cogs/pickomino/_options.py",
    "cogs/pickomino/_replies.py",
]
LITERAL_KEY = re.compile(r"""\bt\(\s*"([a-z_.]+)\"""")
ERROR_KEY = re.compile(r"""key\s*=\s*"([a-z_.]+)\"""")


def _sources() -> list[Path]:
    files: list[Path] = []
    for entry in OUR_CODE:
        path = ROOT / entry
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


def test_every_literal_key_exists():
    keys = catalog()
    missing = {
        (path.name, key)
        for path in _sources()
        for pattern in (LITERAL_KEY, ERROR_KEY)
        for key in pattern.findall(path.read_text(encoding="utf-8"))
        if key not in keys
    }
    assert missing == set()
