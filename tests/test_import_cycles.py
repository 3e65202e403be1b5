"""The code depends one way: no import cycle between the packages of bot/ (at every
level, each sub-package taken whole and each loose module on its own), and none
between the modules of a game. Read from the source with `ast`, imports inside
functions included. Between packages, imports under `if TYPE_CHECKING:` are left out
(never run, they only name a type of the layer above, such as a renderer's `Rendered`);
between a game's modules they count too: a game has no layers to excuse a circle."""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "bot"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in BOT.rglob("*.py")}
PACKAGES = {module_name(path) for path in BOT.rglob("__init__.py")}


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden |= {id(inner) for inner in ast.walk(node)}
    return hidden


def _resolve(name: str) -> str | None:
    """The module of ours an imported name is (or is in)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, *, type_checking: bool = False) -> Iterator[str]:
    """Our modules that `module` imports, wherever in it (functions too); those under
    `if TYPE_CHECKING:` only if `type_checking`."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = set() if type_checking else _type_checking_nodes(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from package import module` imports the module; any other name is the
            # package's (or module's) own.
            members = [f"{base}.{alias.name}" for alias in node.names]
            names = [*members, *([base] if any(m not in MODULES for m in members) else [])]
        else:
            continue
        for name in names:
            target = _resolve(name) if name.startswith("bot") else None
            if target is not None and target != module:
                yield target


IMPORTS = {module: set(imports_of(module)) for module in MODULES}
ALL_IMPORTS = {module: set(imports_of(module, type_checking=True)) for module in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def level_graph(package: str) -> dict[str, set[str]]:
    """Inside `package`: each direct sub-package whole (its modules and below), each
    module directly in it on its own; an edge where one imports the other."""

    def unit(module: str) -> str | None:
        if module == package or not module.startswith(f"{package}."):
            return None
        child = f"{package}.{module[len(package) + 1 :].split('.')[0]}"
        return child

    graph: dict[str, set[str]] = defaultdict(set)
    for module, targets in IMPORTS.items():
        source = unit(module)
        for target in targets:
            destination = unit(target)
            if source and destination and source != destination:
                graph[source].add(destination)
    return graph


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_no_cycle_between_the_parts_of_a_package(package):
    assert cycles(level_graph(package)) == []


GAME_FOLDERS = sorted(p.name for p in (BOT / "games").iterdir() if (p / "__init__.py").exists())


@pytest.mark.parametrize("game", GAME_FOLDERS)
def test_no_cycle_between_the_modules_of_a_game(game):
    prefix = f"bot.games.{game}"
    inside = {m: {t for t in ALL_IMPORTS[m] if t.startswith(prefix)} for m in ALL_IMPORTS}
    graph = {m: targets for m, targets in inside.items() if m.startswith(prefix)}
    assert cycles(graph) == []


def test_the_reader_sees_imports_in_functions_and_relative_ones():
    # the checks above are only as good as this reader: a lazy import counts
    assert "bot.connection.endpoints" in IMPORTS["bot.app.client"]
    assert "bot.render.layout" in ALL_IMPORTS["bot.plugin.game_plugin"]
    assert "bot.render.layout" not in IMPORTS["bot.plugin.game_plugin"]
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
