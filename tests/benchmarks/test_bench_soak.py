"""bench_soak runs the real bots briefly and writes its report; bad input is an `error:`
line before anything starts."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import bench_soak

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--games", "0"], "argument --games: 0 is less than 1"),
        (["--games", "2001"], "argument --games: at most 2000"),
        (["--minutes", "0"], "argument --minutes: must be more than 0"),
        (["--minutes", "1", "--kill-db-at", "2"], "argument --kill-db-at: a minute within"),
        (["--database-url", "postgresql://nobody@127.0.0.1:1/none"], "cannot connect"),
    ],
)
def test_bad_input_is_an_error_line(argv, said, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_soak.main(argv)
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert "error: " in captured.err and said in captured.err
    assert "Traceback" not in captured.err


def test_a_brief_soak_reports_every_figure(tmp_path) -> None:
    out = tmp_path / "soak"
    brief = ["--games", "2", "--minutes", "0.34", "--processes", "1", "--computer-share", "0.5"]
    command = [sys.executable, "-m", "benchmarks.bench_soak", *brief, "--out", str(out)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "minute 1:" in done.stdout and "| all |" in done.stdout
    report = json.loads((out / "report.json").read_text())
    whole = report["whole_run"]
    for key in ("clicks", "p50_ms", "p99_ms", "late", "cpu_ms_per_click", "finished", "stuck",
                "bot_token_per_second", "invalid", "database_mb_end"):  # fmt: skip
        assert key in whole, key
    assert whole["clicks"] > 0 and whole["late"] == 0
    [process] = report["processes"]
    assert process["rss_mb_max"] > 0 and process["database_connections_max"] >= 1
    [minute] = report["minutes"]
    assert minute["rss_mb"] and minute["database_connections"]
    for plot in ("rss.png", "p99.png", "clicks.png"):
        assert (out / plot).read_bytes().startswith(b"\x89PNG")
