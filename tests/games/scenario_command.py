"""`python -m bot.games.scenario ARGUMENT` for the scenario tests, as a process or in this one.

The command runs nothing but `main()` (its `__main__` guard passes main's status to
sys.exit), so `in_process` gives the same standard output, standard error and exit status
for an argument and an input, without a new interpreter importing both games and
discord.py (a second of CPU) for each of the many scenarios. Each test file still runs
the real process for a file and for standard input, for what only a process shows: the
guard, the exit status as the shell sees it, and nothing else written to standard error.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from unittest import mock

from bot.games.scenario import main

COMMAND = [sys.executable, "-m", "bot.games.scenario"]


def as_process(argument: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, argument], input=stdin, capture_output=True, text=True, timeout=30
    )


def in_process(argument: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    out, err = io.StringIO(), io.StringIO()
    with (
        mock.patch.object(sys, "stdin", io.StringIO(stdin)),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        status = main([argument])
    return subprocess.CompletedProcess([*COMMAND, argument], status, out.getvalue(), err.getvalue())
