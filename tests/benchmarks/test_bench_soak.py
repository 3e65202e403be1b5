"""bench_soak runs the real bots briefly and writes its report; bad input is an `error:`
line before anything starts."""

import asyncio
import gc
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import asyncpg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks import bench_soak
from benchmarks.support.soak_results import read_runs
from bot.devserver.standin import FakeMessage
from bot.i18n import t
from bot.render.custom_ids import ClickAction, ComponentRef
from tests.benchmarks.stand_in_tables import kept_picker_tables

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--games", "0"], "argument --games: 0 is less than 1"),
        (["--games", "2001"], "argument --games: at most 2000"),
        (["--minutes", "0"], "argument --minutes: must be more than 0"),
        (["--minutes", "1", "--kill-db-at", "2"], "argument --kill-db-at: a minute within"),
        (["--think", "8-2"], "argument --think: '8-2': from 0 up, the low end first"),
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


def test_a_results_file_of_other_columns_is_an_error_line_before_the_run(tmp_path, capsys):
    results = tmp_path / "soak.csv"
    results.write_text("games,p99\n500,216\n")
    with pytest.raises(SystemExit) as exit_:
        bench_soak.main(["--results", str(results)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "error: argument --results: " in err and "Traceback" not in err


CUT_MID_CONNECT = asyncpg.InternalClientError(
    "cannot switch to state 11; another operation (10) is in progress"
)


async def test_a_database_cut_mid_connect_keeps_the_last_size(monkeypatch) -> None:
    """At the database kill, asyncpg's protocol state error escaped the size read and
    ended the run with a traceback: it is the database away, as for the bot."""

    async def cut(admin_url: str) -> float:
        raise CUT_MID_CONNECT

    monkeypatch.setattr(bench_soak, "database_mb", cut)
    assert await bench_soak.last_database_mb("postgresql://soak@127.0.0.1:1/x", 8.5) == 8.5


async def test_a_database_cut_mid_connect_is_unreachable_not_a_traceback(monkeypatch) -> None:
    async def connect(url: str, timeout: float) -> None:
        raise CUT_MID_CONNECT

    monkeypatch.setattr(bench_soak.asyncpg, "connect", connect)
    reason = await bench_soak.unreachable("postgresql://soak@127.0.0.1:1/x")
    assert reason == f"InternalClientError: {CUT_MID_CONNECT}"


def test_a_brief_soak_reports_every_figure(tmp_path) -> None:
    out = tmp_path / "soak"
    results = tmp_path / "results" / "soak.csv"
    cache = tmp_path / "cache"  # kept tables: the soak builds none (a minute) before its bots
    kept_picker_tables(cache)
    brief = ["--games", "2", "--minutes", "0.2", "--processes", "1", "--computer-share", "0.5"]
    brief += ["--think", "0.2-0.6", "--cache-dir", str(cache)]  # quick people: every kind of click
    brief += ["--results", str(results)]
    command = [sys.executable, "-m", "benchmarks.bench_soak", *brief, "--out", str(out)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "minute 1:" in done.stdout and "| all |" in done.stdout
    report = json.loads((out / "report.json").read_text())
    whole = report["whole_run"]
    for key in ("clicks", "p50_ms", "p99_ms", "late", "cpu_ms_per_click", "finished", "stuck",
                "bot_token_per_second", "invalid", "database_mb_end", "bot_stalls",
                "bot_gc_max_ms", "commit_p99_ms_worst_minute"):  # fmt: skip
        assert key in whole, key
    assert whole["clicks"] > 0 and whole["late"] == 0
    assert report["lost"]["accepted_sessions"] >= 1
    assert report["lost"]["clicks_lost"] == report["lost"]["messages_ahead"] == 0
    assert "targets:" in done.stdout and "- nothing lost: 0 of" in done.stdout
    assert whole["client_lag_p99_ms"] is not None and "start" in whole["p99_ms_by_click"]
    assert whole["clicks_by_click"]["start"] >= 1
    assert f"start {whole['p99_ms_by_click']['start']:.0f} ms (" in done.stdout
    [process] = report["processes"]
    assert process["rss_mb_max"] > 0 and process["database_connections_max"] >= 1
    [minute] = report["minutes"]
    assert minute["rss_mb"] and minute["database_connections"]
    for plot in ("rss.png", "p99.png", "clicks.png"):
        assert (out / plot).read_bytes().startswith(b"\x89PNG")
    [row] = read_runs(results)  # the run's row, numbered in the file it was given
    assert (row.run, row.games, row.processes, row.late) == ("1", "2", "1", "0")
    assert row.p99_ms == f"{whole['p99_ms']:.0f}" and row.sessions and row.commit
    assert row.command.endswith(f"--out {out}") and "recorded as run 1 in" in done.stdout


def test_the_click_that_ends_a_game_is_counted_apart() -> None:
    def message(heading: str) -> FakeMessage:
        text = {"type": 10, "content": f"{heading}\nAnne wins with 9 worms"}
        return FakeMessage(1, 2, 3, {}, components=[{"type": 17, "components": [text]}])

    move = ComponentRef(ClickAction.MOVE, session_id=8, version=41, arg="roll")
    final = message(t("block.heading", title=t("pickomino.final.title")))
    playing = message(t("block.heading", title="Anne's turn"))
    assert bench_soak.counted_as(move, final) == bench_soak.GAME_OVER
    assert bench_soak.counted_as(move, playing) == "move"
    assert bench_soak.counted_as(move, None) == "move"  # not shown (refused, or no watch)
    assert bench_soak.counted_as(None, None) == ""


async def test_a_seen_change_the_database_does_not_hold_is_reported_lost(postgres_url) -> None:
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute(
            "CREATE TABLE sessions (id BIGINT PRIMARY KEY, version INTEGER, status TEXT, "
            "message_id BIGINT)"
        )
        await connection.executemany(
            "INSERT INTO sessions VALUES ($1, $2, $3, $4)",
            [(7, 5, "playing", 70), (8, 9, "playing", 80)],
        )
    finally:
        await connection.close()
    # Session 7: a click on version 5 was seen done, but the database stayed at 5.
    # Session 8: a click on version 3 was seen, and the database is past it.
    run = SimpleNamespace(accepted={7: 5, 8: 3}, fake=None)
    lost = await bench_soak.lost_changes(postgres_url, run, [])  # type: ignore[arg-type]
    assert (lost["accepted_sessions"], lost["clicks_lost"], lost["messages_ahead"]) == (2, 1, 0)
    assert lost["examples"] == [
        "session 7: a click on version 5 was seen, the database has version 5"
    ]


def report_of(*, late=0, p99=250.0, growth=0.01, stuck=0, lost=0, faults=()) -> dict:
    return {
        "whole_run": {"late": late, "p99_ms": p99, "stuck": stuck},
        "processes": [{"process": 1, "rss_growth_after_warm_up": growth}],
        "lost": {"accepted_sessions": 10, "clicks_lost": lost, "messages_ahead": 0},
        "faults": list(faults),
    }


def verdicts(report: dict) -> dict[str, bool | None]:
    return {aim: met for aim, met, _ in bench_soak.targets(report)}


@given(
    st.lists(st.floats(0, 100, allow_nan=False)).map(sorted),
    st.floats(-1, 101, allow_nan=False),
    st.floats(0, 30, allow_nan=False),
)
def test_a_minutes_records_are_those_made_in_it(moments, start, span) -> None:
    # Found by bisection in lists kept in time order: the same as a pass over them all.
    records = [(moment, index) for index, moment in enumerate(moments)]
    expected = [r for r in records if start <= r[0] < start + span]
    assert bench_soak.between(records, start, start + span) == expected
    clicks = [bench_soak.Click(moment, None, late=False) for moment in moments]
    found = bench_soak.between(clicks, start, start + span, at=lambda c: c.at)
    assert [c.at for c in found] == [r[0] for r in expected]


def test_the_bots_histograms_give_quantiles_and_counts_over_a_bound() -> None:
    # Cumulative counts by upper bound, as Prometheus gives them: 90 wake-ups within
    # 10 ms, 8 more within 1 s, 2 above 2 s.
    lags = Counter({0.01: 90, 1.0: 98, 2.0: 98, math.inf: 100})
    assert bench_soak.quantile_ms(lags, 0.5) == 10.0
    assert bench_soak.quantile_ms(lags, 0.99) == math.inf
    assert bench_soak.count_over(lags, 1.0) == 2
    assert bench_soak.quantile_ms(Counter(), 0.99) is None


def test_the_targets_say_which_were_met() -> None:
    assert all(verdicts(report_of()).values())
    missed = verdicts(report_of(late=1, p99=301.0, growth=0.06, stuck=2, lost=1))
    assert not any(missed.values())
    fault = {"kind": "database", "unanswered_clicks": 0, "within_30_s": False,
             "p99_under_300_ms_after_seconds": None}  # fmt: skip
    after_fault = verdicts(report_of(faults=[fault]))
    assert after_fault["database fault: 0 clicks unanswered"] is True
    assert after_fault["database fault: p99 under 300 ms within 30 s"] is False


def test_rss_growth_is_the_fitted_rise_over_where_it_began() -> None:
    # 200 MB growing 10 MB over the span, with noise around the line.
    points = [(s, 200 + s / 60 + (1 if s % 120 else -1)) for s in range(0, 601, 30)]
    assert bench_soak.growth(points) == pytest.approx(0.05, abs=0.005)
    assert bench_soak.growth([(0, 100.0), (60, 100.0), (120, 100.0)]) == 0.0
    assert bench_soak.growth([(0, 100.0)]) is None


async def test_what_survives_is_frozen_out_of_the_collector_every_few_seconds(
    monkeypatch,
) -> None:
    """The benchmark's own full collections walk only the last seconds' objects: its
    pauses would stall the stand-in and both bots' clicks with it."""
    monkeypatch.setattr(bench_soak, "FREEZE_EVERY", 0.01)
    kept = [[index] for index in range(1000)]  # what a soak keeps: all of it lives on
    gc.unfreeze()
    try:
        await bench_soak.keep_freezing(time.monotonic() + 0.05)
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()


def test_a_faults_unanswered_clicks_are_told_apart_by_when_they_were_made() -> None:
    fault = bench_soak.Fault("process", at=100.0, restored_at=102.0)
    clicks = [
        bench_soak.Click(at=103.0, client=None, late=True, made=99.5),  # in flight at the kill
        bench_soak.Click(at=111.0, client=None, late=True, made=101.0),  # while it was down
        bench_soak.Click(at=106.5, client=0.4, late=True, callback=3.2, made=103.0),
        bench_soak.Click(at=104.2, client=0.2, late=False, callback=0.2, made=104.0),
    ]
    run = SimpleNamespace(clicks=clicks, began=40.0)
    found = bench_soak.recovery(run, fault)  # type: ignore[arg-type]
    assert found["unanswered_clicks"] == 3
    assert found["unanswered_made"] == {"before": 1, "during": 1, "after": 1}
    assert bench_soak.made_when(found) == "made 1 before it, 1 during it, 1 after"


def test_a_soak_stopped_by_sigterm_leaves_no_server_behind(tmp_path, request) -> None:
    """PostgreSQL runs detached from the benchmark: a SIGTERM (`timeout`, a cancelled
    job) stops the run as Ctrl-C does, the bots and the server with it."""
    # The run's TMPDIR, where PostgreSQL puts its socket: a path of at most 107 bytes,
    # which one under tmp_path is not once pytest-xdist adds its worker's folder.
    temp = Path(tempfile.mkdtemp(prefix="soak-"))
    request.addfinalizer(lambda: shutil.rmtree(temp, ignore_errors=True))
    # Kept, so that the soak does not build Picker's tables (a minute) before its bots.
    cache = tmp_path / "cache"
    kept_picker_tables(cache)
    brief = ["--games", "2", "--minutes", "1", "--processes", "1", "--cache-dir", str(cache)]
    brief += ["--no-record"]
    command = [sys.executable, "-m", "benchmarks.bench_soak", *brief, "--out", str(tmp_path)]
    env = {**os.environ, "TMPDIR": str(temp)}
    process = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    before_ready = []
    for line in process.stdout:  # the bots are up: the server, the bots and the stand-in run
        before_ready.append(line)
        if line.startswith("bot #1 ready"):
            break
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, out + err
    assert "interrupted: the bots and PostgreSQL are stopped" in err
    assert "Traceback" not in err
    # The folder held the tables, so the soak built none before its bots
    assert not [line for line in before_ready if "building Picker's tables" in line]
    left = [cmdline for cmdline in command_lines() if str(temp).encode() in cmdline]
    assert left == [], "a process of the run is still there"
    assert list(temp.glob("soak-pg-*")) == [], "the run's database is still there"


def command_lines() -> list[bytes]:
    """Every running process's command line (one that ends meanwhile is left out)."""
    lines = []
    for path in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            lines.append(path.read_bytes())
        except OSError:
            continue
    return lines


def test_a_sigterm_during_a_garbage_collection_still_stops_the_run() -> None:
    """A SIGTERM whose handler runs inside a gc callback (the soak times every collection)
    used to raise there, where Python ignores what is raised: the run went on. From the
    run's loop it cancels the run, wherever the main thread was."""
    previous = signal.signal(signal.SIGTERM, bench_soak.stop_as_interrupted)
    sent: list[bool] = []

    def terminate_mid_collection(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs between these bytecodes, in here
                pass

    async def run() -> None:
        bench_soak.cancel_on_sigterm()
        gc.callbacks.append(terminate_mid_collection)
        try:
            gc.collect()
            await asyncio.sleep(10)
        finally:
            gc.callbacks.remove(terminate_mid_collection)

    began = time.monotonic()
    try:
        with pytest.raises(asyncio.CancelledError):
            asyncio.run(run())
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert sent and time.monotonic() - began < 5
