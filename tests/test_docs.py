"""The docs say what is true now: each page short enough to finish, every link to a file
and heading that exist, every `python -m` command a module that runs, every path and
module ARCHITECTURE names one that exists; the players' rules have a place for each
game, and the invite link asks for the permissions the bot checks. (Each setting's
paragraph in docs/CONFIGURATION.md: tests/config/test_settings.py.)"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from bot.ui.permissions import INVITE

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
# A page a newcomer can finish in ten minutes.
MOST_LINES = {"README.md": 250, "docs/ARCHITECTURE.md": 500, "docs/SCALING.md": 300}
OUR_PACKAGES = {"bot", "benchmarks", "tools", "tests"}
OTHERS_MODULES = {"pytest", "pip", "venv"}  # `python -m` of tools that are not ours

FENCE = re.compile(r"^(```|~~~).*?^\1", flags=re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", flags=re.MULTILINE)
COMMAND = re.compile(r"python -m ([A-Za-z_][\w.]*\w)")
PATH = re.compile(r"(?<![\w/.])bot/[\w./<>*-]*")
DOTTED = re.compile(r"(?<![\w/.])bot(?:\.[A-Za-z_]\w*)+")
FILE_NAME = re.compile(r"`(\w+\.py)`")  # a module named by its file alone: `solver.py`


def name_of(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def prose(text: str) -> str:
    """The page without its fenced code blocks."""
    return FENCE.sub("", text)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    words = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return words.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """Every heading's anchor, a repeated one numbered as GitHub numbers it."""
    found: list[str] = []
    seen: dict[str, int] = {}
    for heading in HEADING.findall(prose(page.read_text(encoding="utf-8"))):
        base = slug(heading)
        found.append(f"{base}-{seen[base]}" if base in seen else base)
        seen[base] = seen.get(base, 0) + 1
    return frozenset(found)


def module_path(module: str) -> Path | None:
    """The file `python -m module` runs, or None if there is none."""
    path = ROOT.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__main__.py"):
        if candidate.is_file():
            return candidate
    return None


def commands_in(page: Path) -> set[str]:
    return set(COMMAND.findall(page.read_text(encoding="utf-8")))


@pytest.mark.parametrize("page, most", MOST_LINES.items())
def test_each_page_is_short_enough_to_finish(page, most):
    lines = (ROOT / page).read_text(encoding="utf-8").count("\n")
    assert lines <= most, f"{page} has {lines} lines, more than {most}"


def test_the_readme_links_the_rules_and_the_settings():
    targets = LINK.findall(README.read_text(encoding="utf-8"))
    assert "docs/RULES.md" in targets
    assert "docs/CONFIGURATION.md" in targets


@pytest.mark.parametrize("page", PAGES, ids=name_of)
def test_every_relative_link_points_at_a_file_and_heading_that_exist(page):
    broken = []
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target} (no such heading)")
    assert broken == []


@pytest.mark.parametrize("page", PAGES, ids=name_of)
def test_every_python_m_command_names_a_module_of_ours_that_exists(page):
    missing = [
        module
        for module in sorted(commands_in(page))
        if module.split(".")[0] not in OTHERS_MODULES
        and (module.split(".")[0] not in OUR_PACKAGES or module_path(module) is None)
    ]
    assert missing == []


# Runs each module as `python -m module --help` would, in one child process, so that the
# imports they share are made once: a tenth of the time of a process each.
HELP_RUNNER = """
import contextlib, io, json, runpy, sys
codes = {}
for module in sys.argv[1:]:
    sys.argv = [module, "--help"]
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        codes[module] = 0
    except SystemExit as stop:
        codes[module] = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    except BaseException as error:
        codes[module] = repr(error)
print(json.dumps(codes))
"""


def takes_help(module: str) -> bool:
    """Whether `--help` only prints help: the module (or the module its `__main__` runs)
    parses its arguments with argparse. Others would act on the word `--help`."""
    path = module_path(module)
    if path is None:
        return False
    source = path.read_text(encoding="utf-8")
    if path.name == "__main__.py":
        for runs in re.findall(r"^from ([\w.]+) import main$", source, flags=re.MULTILINE):
            runs_path = module_path(runs)
            source += runs_path.read_text(encoding="utf-8") if runs_path else ""
    return "ArgumentParser" in source


def test_every_python_m_command_with_options_answers_help():
    modules = sorted(
        {
            module
            for page in PAGES
            for module in commands_in(page)
            if module.split(".")[0] in OUR_PACKAGES and takes_help(module)
        }
    )
    assert "bot" in modules  # the reader found them
    ran = subprocess.run(
        [sys.executable, "-c", HELP_RUNNER, *modules],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    codes = json.loads(ran.stdout.strip().splitlines()[-1])
    assert {module: code for module, code in codes.items() if code != 0} == {}


def tree_paths(text: str) -> list[str]:
    """The paths of the package tree (the first fenced block after "## The packages"):
    an entry is the first word of a line, ending in / or .py, under the entry two spaces
    less indented."""
    section = text[text.index("## The packages") :]
    block = section[section.index("```") + 3 :]
    block = block[block.index("\n") + 1 : block.index("```")]
    paths: list[str] = []
    parents: dict[int, str] = {}
    for line in block.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        first = line.split()[0] if line.strip() else ""
        if not first.endswith(("/", ".py")) or (indent and indent - 2 not in parents):
            continue
        path = parents.get(indent - 2, "") + first
        parents = {level: p for level, p in parents.items() if level < indent}
        if first.endswith("/"):
            parents[indent] = path
        paths.append(path)
    return paths


@cache
def top_level_names(module: Path) -> frozenset[str]:
    """What a module defines or imports at its top level."""
    names: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return frozenset(names)


def dotted_exists(name: str) -> bool:
    """`bot.a.b` is a module or package, or `bot.a.b.Name...` a name defined in one."""
    parts = name.split(".")
    for length in range(len(parts), 0, -1):
        path = ROOT.joinpath(*parts[:length])
        module = path.with_suffix(".py") if path.with_suffix(".py").is_file() else None
        if module is None and path.is_dir():
            if length == len(parts):
                return True
            module = path / "__init__.py"
        if module is not None:
            rest = parts[length:]
            return not rest or (module.is_file() and rest[0] in top_level_names(module))
    return False


def test_the_architecture_tree_names_files_that_exist():
    paths = tree_paths(ARCHITECTURE.read_text(encoding="utf-8"))
    assert "bot/app/client.py" in paths  # the reader found the tree
    assert [path for path in paths if not (ROOT / path).exists()] == []


def test_every_bot_path_and_module_the_architecture_names_exists():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    paths = {p.rstrip(".,") for p in PATH.findall(text) if not re.search(r"[<*]|NNNN", p)}
    missing = [path for path in sorted(paths) if not (ROOT / path).exists()]
    missing += [name for name in sorted(set(DOTTED.findall(text))) if not dotted_exists(name)]
    # Named alone, in the folder the sentence is about: a file of that name somewhere in
    # bot/ or in the test-only game (the example of what a game folder holds).
    files = {
        p.name for folder in ("bot", "tests/fixtures/games") for p in ROOT.glob(f"{folder}/**/*.py")
    }
    missing += [name for name in sorted(set(FILE_NAME.findall(text))) if name not in files]
    assert missing == []


@pytest.mark.parametrize("page", [page for page in PAGES if page != ARCHITECTURE], ids=name_of)
def test_every_bot_path_and_module_a_page_names_exists(page):
    text = page.read_text(encoding="utf-8")
    paths = {p.rstrip(".,") for p in PATH.findall(text) if not re.search(r"[<*]|NNNN", p)}
    missing = [path for path in sorted(paths) if not (ROOT / path).exists()]
    missing += [name for name in sorted(set(DOTTED.findall(text))) if not dotted_exists(name)]
    assert missing == []


def test_the_rules_have_a_section_per_game():
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", rules, flags=re.MULTILINE)
    assert headings == ["Pickomino", "Pickomino with the Extrawurm expansion", "Picker"]


def test_the_invite_link_asks_for_what_the_bot_checks_before_a_game():
    readme = README.read_text(encoding="utf-8")
    (asked,) = re.findall(r"oauth2/authorize\?[^`\s]*permissions=(\d+)", readme)
    # View Channels, Send Messages, Embed Links, Attach Files, Read Message History, and
    # Send Messages in Threads, by Discord's bit numbers.
    bits = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 38)
    assert int(asked) == bits == INVITE.value
    named = ("View Channels", "Send Messages", "Send Messages in Threads", "Embed Links")
    for name in (*named, "Attach Files", "Read Message History"):
        assert f"**{name}**" in readme
