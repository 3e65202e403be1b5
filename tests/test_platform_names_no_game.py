"""The platform names no game: outside a game's own folder (and the registry, which
lists them), no module's code or string literals contain a game's kind. Docstrings may
mention one as an example. The project's own name (the `pickomino-bot` distribution and
its default database file, which admins' installs depend on) is not a game's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.games.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = ROOT / "bot/games/registry.py"
PROJECT_NAMES = re.compile(r"pickomino-bot|data/pickomino\.db")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _words(tree: ast.AST) -> list[tuple[int, str]]:
    """Every name and non-docstring string of the code, with its line."""
    docstrings = _docstrings(tree)
    words: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                words.append((line, PROJECT_NAMES.sub("", node.value)))
        elif isinstance(node, ast.Name):
            words.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            words.append((line, node.attr))
        elif isinstance(node, ast.ImportFrom) and node.module:
            words.append((line, node.module))
        elif isinstance(node, ast.alias | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words.append((line, node.name))
        elif isinstance(node, ast.arg):
            words.append((line, node.arg))
    return words


@pytest.mark.parametrize("kind", GAMES.kinds)
def test_no_module_outside_the_games_folder_names_it(kind):
    pattern = re.compile(rf"(?<![a-z]){kind}(?![a-z])", re.IGNORECASE)
    own = ROOT / "bot/games" / kind
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path == REGISTRY or own in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [
            f"{path.relative_to(ROOT)}:{line}: {word!r}"
            for line, word in _words(tree)
            if pattern.search(word.replace("_", " "))
        ]
    assert found == []


def test_the_platforms_catalogs_name_no_game():
    platform = ROOT / "bot/i18n"
    for path in sorted(platform.rglob("*.json")):
        text = path.read_text(encoding="utf-8")
        for kind in GAMES.kinds:
            assert f'"{kind}.' not in text, f"{path.relative_to(ROOT)} has a {kind} key"
