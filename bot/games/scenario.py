"""The scenario runner: replay a forced-dice scenario of any game, print the position.

Usage: python -m bot.games.scenario FILE   (FILE may be - for standard input)

The format is specified in shared/SCENARIOS.md. The file's "game" key picks the game
(the registry's SCENARIO_DEFAULT_KIND when absent). A scenario that breaks the rules prints one line
`error: <where>: <reason>` on standard error and exits 2, and nothing on standard output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bot.games.registry import GAMES, SCENARIO_DEFAULT_KIND
from bot.plugin.scenario_errors import ScenarioError

EXIT_BAD_SCENARIO = 2


def run_scenario(scenario: Any) -> dict[str, Any]:
    """Play a parsed scenario of whichever game it names; return the final position."""
    if not isinstance(scenario, dict):
        raise ScenarioError("a scenario is a JSON object")
    kind = scenario.get("game", SCENARIO_DEFAULT_KIND)
    play = GAMES.scenario_player(kind) if isinstance(kind, str) else None
    if play is None:
        raise ScenarioError(f"unknown game {kind!r}")
    return play(scenario)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("error: usage: python -m bot.games.scenario FILE (or - for stdin)", file=sys.stderr)
        return EXIT_BAD_SCENARIO
    try:
        position = run_scenario(_read(args[0]))
    except ScenarioError as error:
        print(error.line(), file=sys.stderr)
        return EXIT_BAD_SCENARIO
    print(json.dumps(position, indent=2))
    return 0


def _read(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ScenarioError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"cannot read {path}: it is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ScenarioError(f"malformed JSON: {error.msg} at line {error.lineno}") from None
    except RecursionError:
        raise ScenarioError("malformed JSON: nested too deeply") from None


if __name__ == "__main__":
    sys.exit(main())
