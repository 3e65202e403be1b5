"""`python -m bot.health FILE`, as compose.yaml's health check runs it."""

from __future__ import annotations

import subprocess
import sys


def run_check(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.health", *arguments], capture_output=True, text=True
    )


def test_a_fresh_heartbeat_file_is_healthy(tmp_path):
    beat = tmp_path / "heartbeat"
    beat.touch()
    done = run_check(str(beat))
    assert (done.returncode, done.stderr) == (0, "")


def test_a_missing_heartbeat_file_is_one_error_line(tmp_path):
    done = run_check(str(tmp_path / "heartbeat"))
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1
