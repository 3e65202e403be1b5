"""No import cycles: between the modules of each game, and between the packages of bot/.

Modules in a cycle cannot be read, tested or moved one without the other, and which of
them works depends on which is imported first (the other is half-initialised). The
imports are read from the source with `ast`, so an import inside a function counts as
much as one at the top, and so does one under `if TYPE_CHECKING:`: a type-only import
does not run, but it still ties the two modules together, and the design should let
the lower one name what it needs without the upper one (a Protocol, or a lower module
holding the shared types).
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

import bot

BOT = Path(bot.__file__).parent
GAMES = BOT / "games"

Graph = dict[str, set[str]]


def _modules(root: Path, package: str) -> dict[str, Path]:
    """Every module under the package at `root`, by dotted name (a package's
    `__init__.py` by the package's own name)."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join((package, *parts))] = path
    return modules


def _imported(name: str, path: Path, modules: Mapping[str, Path]) -> set[str]:
    """Which of `modules` the module imports anywhere in its source (in functions and
    under TYPE_CHECKING too).

    `from package import module` imports that module (the package's __init__ runs
    first, as for any module of it, which is no edge); `from package import name`
    imports the package.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str | None] = set()
    for node in ast.walk(tree):  # every node: in functions and under TYPE_CHECKING too
        if isinstance(node, ast.Import):
            found.update(_known_prefix(alias.name, modules) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's package, one level up per dot
                base = here
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                found.add(submodule if submodule in modules else _known_prefix(module, modules))
    return {module for module in found if module is not None and module != name}


def _module_graph(modules: Mapping[str, Path]) -> Graph:
    """Which of `modules` each one imports."""
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def _known_prefix(target: str, modules: Mapping[str, Path]) -> str | None:
    """The longest leading part of `target` that is one of `modules`, if any."""
    while target:
        if target in modules:
            return target
        target = target.rpartition(".")[0]
    return None


def _components(graph: Mapping[str, Iterable[str]]) -> list[set[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm):
    the groups of nodes that each reach one another, so that each is on a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components, key=min)


def _cycle_in(graph: Mapping[str, Iterable[str]], component: set[str]) -> list[str]:
    """A shortest path from the component's first node back to it, inside the component."""
    start = min(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target in sorted(graph.get(node, ())):
            if target not in component:
                continue
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if target not in came_from:
                came_from[target] = node
                queue.append(target)
    raise AssertionError(f"{start} is in a component but on no cycle")


def _cycles(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Each group of nodes on cycles, as one of its cycles and the group's other nodes."""
    described = []
    for component in _components(graph):
        cycle = _cycle_in(graph, component)
        others = sorted(component.difference(cycle))
        described.append(" -> ".join(cycle) + (f" (also: {', '.join(others)})" if others else ""))
    return described


def _game_folders() -> list[Path]:
    return sorted(path.parent for path in GAMES.glob("*/__init__.py"))


def test_the_games_are_found() -> None:
    assert _game_folders(), f"no game package under {GAMES}"


@pytest.mark.parametrize("folder", _game_folders(), ids=lambda folder: folder.name)
def test_no_import_cycle_between_the_modules_of_a_game(folder: Path) -> None:
    modules = _modules(folder, f"bot.games.{folder.name}")
    cycles = _cycles(_module_graph(modules))
    assert not cycles, f"import cycles in bot.games.{folder.name}:\n" + "\n".join(cycles)


def _package_of(module: str, modules: Mapping[str, Path]) -> str:
    """The package a module is in: a package's __init__ is its own package."""
    return module if modules[module].name == "__init__.py" else module.rpartition(".")[0]


def package_graph() -> Graph:
    """Package to package: an edge where a module of one imports a module of another.

    A package's imports of its own sub-packages are left out: a package may put its
    parts together (bot.games.registry lists the games' plugins, bot.client starts
    bot.observability) while the parts import from it what they share, such as the
    plugin interface. That is one layer assembling the next, not two packages leaning
    on each other (a cycle of their modules would still show in the module graph).
    """
    modules = _modules(BOT, "bot")
    graph: Graph = {}
    for module, targets in _module_graph(modules).items():
        package = _package_of(module, modules)
        edges = graph.setdefault(package, set())
        for target in targets:
            other = _package_of(target, modules)
            if other != package and not other.startswith(f"{package}."):
                edges.add(other)
    return graph


# Besides the cycles the reason names, bot.games <-> bot.render is one too: the games'
# render modules build on bot.render.layout, and bot.render.session_message imports
# bot.games.plugin (GamePlugin) back.
@pytest.mark.xfail(
    strict=True,
    reason="bot.history/bot.ui/bot.storage cycles: issue 25 part 3, being fixed on main",
)
def test_no_import_cycle_between_the_packages_of_bot() -> None:
    cycles = _cycles(package_graph())
    assert not cycles, "import cycles between packages:\n" + "\n".join(cycles)


def test_the_cycle_finder_reports_a_cycle_and_nothing_else() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert _cycles(graph) == ["a -> b -> c -> a"]
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": {"b"}}
    assert _cycles(graph) == ["a -> b -> a (also: c)"]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_reader_follows_every_form_of_import(tmp_path: Path) -> None:
    sources = {
        "__init__.py": "from pkg import a\n",
        "a.py": (
            "import os\nfrom . import b\nfrom .sub.c import thing\n"
            "def later():\n    from pkg.sub import d\n"
        ),
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import X\n",
        "sub/__init__.py": "from pkg.sub.c import name\n",
        "sub/c.py": "",
        "sub/d.py": "from .. import b\n",
    }
    for relative, source in sources.items():
        path = tmp_path / "pkg" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    assert _module_graph(_modules(tmp_path / "pkg", "pkg")) == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.b", "pkg.sub.c", "pkg.sub.d"},
        "pkg.b": {"pkg.a"},
        "pkg.sub": {"pkg.sub.c"},
        "pkg.sub.c": set(),
        "pkg.sub.d": {"pkg.b"},
    }
