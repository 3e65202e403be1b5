"""Every literal key our code passes to t() is in the English catalog, and every key of
core.json and pickomino.json is used by the code."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from bot.games.pickomino.ai import Level
from bot.games.pickomino.engine import FirstPlayer, LowerTile
from bot.games.pickomino.engine.events import FailReason
from bot.games.pickomino.engine.specialists import Specialist
from bot.games.registry import GAMES
from bot.i18n import catalog

ROOT = Path(__file__).resolve().parents[4]
OUR_CODE = [
    "bot/preview",
    "bot/render",
    "bot/games/pickomino/render",
    "bot/sessions",
    "bot/ui",
    "bot/games/pickomino/commands.py",
    "bot/games/pickomino/command_options.py",
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
        if key not in keys and f"{key}_other" not in keys
    }
    assert missing == set()


CATALOGS = [ROOT / "bot/i18n/en/core.json", ROOT / "bot/games/pickomino/i18n/en/pickomino.json"]
ALL_CODE = ["bot"]


def _string_constants() -> set[str]:
    """Every string literal in the bot's code (f-string pieces too)."""
    found: set[str] = set()
    for folder in ALL_CODE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found.update(
                node.value
                for node in ast.walk(tree)
                if isinstance(node, ast.Constant) and isinstance(node.value, str)
            )
    return found


def _keys_built_from_enums() -> set[str]:
    """Keys the code builds with an f-string from an enum's values or a game's kind."""
    return (
        {f"lobby.bot_level.{level.value}" for level in Level}
        | {f"pickomino.options.lower_tile.{choice.value}" for choice in LowerTile}
        | {f"options.first.{choice.value}" for choice in FirstPlayer}
        | {f"pickomino.options.extrawurm.{specialist.value}" for specialist in Specialist}
        | {f"pickomino.bust.reason.{reason.value}" for reason in FailReason}
        | {f"{game.kind}.title" for game in GAMES}
        | {f"{game.kind}.rules.options.default" for game in GAMES}
    )


def _plural_forms(used: set[str]) -> set[str]:
    """`key_one` and `key_other` of every key the code passes with a count."""
    return {f"{key}_{form}" for key in used for form in ("one", "other")}


def test_every_core_key_is_used():
    keys = {key for path in CATALOGS for key in json.loads(path.read_text(encoding="utf-8"))}
    used = _string_constants() | _keys_built_from_enums()
    used |= _plural_forms(used)
    assert sorted(keys - used) == []
