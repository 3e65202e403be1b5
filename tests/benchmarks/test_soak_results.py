"""The soak runs' results file: bench_soak's report becomes one row, rows are appended
numbered, and docs/SCALING.md shows the table the file makes; bad input is an `error:`
line."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.support import soak_results
from benchmarks.support.soak_results import (
    BEGIN,
    DOC,
    END,
    RESULTS,
    ResultsError,
    SoakRun,
    latest_long_runs,
    read_runs,
    render_table,
    run_from_report,
    table_in,
    with_table,
    write_runs,
)


def a_report(games: int = 500) -> dict[str, Any]:
    """The parts of a bench_soak report.json that a row is made of."""
    return {
        "whole_run": {
            "games": games,
            "processes": 2,
            "minutes": 30.0,
            "clicks_per_second": 87.83,
            "cpu_ms_per_click": 4.96,
            "database_cpu_ms_per_click": 0.91,
            "p50_ms": 171.2,
            "p99_ms": 216.4,
            "late": 0,
            "stuck": 0,
        },
        "processes": [
            {"process": 1, "rss_growth_after_warm_up": 0.0371},
            {"process": 2, "rss_growth_after_warm_up": -0.008},
        ],
        "faults": [
            {
                "kind": "database",
                "minute": 10.0,
                "down_seconds": 20.7,
                "unanswered_clicks": 0,
                "p99_under_300_ms_after_seconds": 0.0,
                "within_30_s": True,
            },
            {
                "kind": "process",
                "minute": 20.0,
                "down_seconds": 1.8,
                "unanswered_clicks": 3,
                "p99_under_300_ms_after_seconds": None,
                "within_30_s": False,
            },
        ],
        "lost": {"accepted_sessions": 1104, "clicks_lost": 0, "messages_ahead": 0},
    }


def test_the_scaling_documents_table_is_the_one_the_results_file_makes() -> None:
    doc = DOC.read_text(encoding="utf-8")
    assert table_in(doc) == render_table(latest_long_runs(read_runs(RESULTS)))
    assert len(doc.splitlines()) <= 300


def test_the_results_file_reads_and_is_written_back_as_it_is(tmp_path) -> None:
    runs = read_runs(RESULTS)
    numbers = [int(run.run) for run in runs if run.run]
    assert numbers == list(range(1, len(numbers) + 1))
    assert all(run.date and run.commit and run.command for run in runs if run.run)
    again = tmp_path / "soak.csv"
    write_runs(again, runs)
    assert again.read_text(encoding="utf-8") == RESULTS.read_text(encoding="utf-8")


def test_a_reports_figures_become_the_row() -> None:
    run = run_from_report(
        a_report(), number=22, date="2026-12-06", commit="abc1234", command="python -m x"
    )
    assert run == SoakRun(
        run="22",
        date="2026-12-06",
        commit="abc1234",
        command="python -m x",
        games="500",
        processes="2",
        minutes="30",
        db_kill_minute="10",
        process_kill_minute="20",
        clicks_per_s="87.8",
        bot_cpu_ms_per_click="5.0",
        db_cpu_ms_per_click="0.9",
        p50_ms="171",
        p99_ms="216",
        late="0",
        stuck="0",
        lost="0",
        sessions="1104",
        rss_growth="+3.7% / -0.8%",
        db_down_s="20.7",
        db_unanswered="0",
        db_recovery_s="0",
        db_recovery_met="yes",
        process_down_s="1.8",
        process_unanswered="3",
        process_recovery_s=">60",
        process_recovery_met="no",
    )


def test_a_run_without_faults_leaves_their_cells_empty() -> None:
    report = a_report()
    report["faults"] = []
    run = run_from_report(report, number=1, date="2026-12-06", commit="", command="c")
    assert run.db_kill_minute == run.process_kill_minute == run.process_recovery_met == ""
    line = render_table([run]).splitlines()[-1]
    assert line.endswith("| none | 171 | 216 | 0 | 0 | 0 of 1,104 | +3.7% / -0.8% |  |  |")


def test_recorded_runs_are_appended_numbered_after_the_last(tmp_path) -> None:
    path = tmp_path / "results" / "soak.csv"
    first = soak_results.record(a_report(), ["--games", "500"], path)
    second = soak_results.record(a_report(750), ["--games", "750"], path)
    assert (first.run, second.run) == ("1", "2")
    assert second.command == "python -m benchmarks.bench_soak --games 750"
    assert second.date and len(second.commit) >= 7  # the tests run in a git checkout
    assert read_runs(path) == [first, second]
    assert path.read_text(encoding="utf-8").count("run,date,commit") == 1


def test_the_table_shows_the_latest_numbered_long_run_of_each_size() -> None:
    runs = [
        SoakRun(run="1", games="1000", minutes="30", p99_ms="900"),
        SoakRun(run="", games="300", minutes="45", p99_ms="271"),  # before the series
        SoakRun(run="2", games="500", minutes="30", p99_ms="220"),
        SoakRun(run="3", games="1000", minutes="12", p99_ms="265"),  # too short
        SoakRun(run="4", games="1000", minutes="30", p99_ms="539"),
    ]
    assert [run.run for run in latest_long_runs(runs)] == ["2", "4"]


def test_a_recovery_reads_as_the_benchmark_judged_it() -> None:
    runs = [
        SoakRun(run="1", games="500", minutes="30", db_kill_minute="10", db_recovery_s="0",
                db_recovery_met="yes", process_kill_minute="20", process_recovery_s=">60",
                process_recovery_met="no"),
        SoakRun(run="2", games="500", minutes="30", db_kill_minute="10", db_recovery_met="no",
                process_kill_minute="20"),
    ]  # fmt: skip
    first, second = (line.split(" | ")[-2:] for line in render_table(runs).splitlines()[2:])
    assert first == ["0 s (met)", "over a minute (not met) |"]
    assert second == ["not met", "- |"]


def test_the_table_is_written_between_the_markers_only() -> None:
    doc = f"# Title\n\nbefore\n{BEGIN}\nold table\n{END}\nafter\n"
    written = with_table(doc, "| new |")
    assert written == f"# Title\n\nbefore\n{BEGIN}\n| new |\n{END}\nafter\n"
    assert with_table(written, "| new |") == written
    assert table_in(written) == "| new |"
    with pytest.raises(ResultsError, match="has no"):
        with_table("# no markers\n", "| new |")


def test_the_command_writes_the_table_into_the_document(tmp_path, capsys) -> None:
    results = tmp_path / "soak.csv"
    write_runs(results, [SoakRun(run="1", games="500", minutes="30", p99_ms="216")])
    doc = tmp_path / "SCALING.md"
    doc.write_text(f"text\n{BEGIN}\n{END}\n", encoding="utf-8")
    soak_results.main(["--results", str(results), "--doc", str(doc)])
    assert "| 1 | - | - | 500 |" in doc.read_text(encoding="utf-8")
    soak_results.main(["--results", str(results), "--doc", str(doc)])
    assert "up to date" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "No such file"),
        ("games,p99\n500,216\n", "the first line is not the columns"),
        (",".join(soak_results.COLUMNS) + "\n1,2026-12-05\n", "line 2: 2 cells"),
        (",".join(soak_results.COLUMNS) + "\n" + "x," * 27 + "x\n", "run 'x' is not a whole"),
        (",".join(soak_results.COLUMNS) + "\n" + "," * 27 + "\n", "needs its number of games"),
        (b"\xff\xfe", "not a CSV file"),
    ],
)
def test_a_broken_results_file_is_an_error_line(tmp_path, capsys, content, said) -> None:
    results = tmp_path / "soak.csv"
    if isinstance(content, bytes):
        results.write_bytes(content)
    elif content is not None:
        results.write_text(content, encoding="utf-8")
    doc = tmp_path / "SCALING.md"
    doc.write_text(f"{BEGIN}\n{END}\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        soak_results.main(["--results", str(results), "--doc", str(doc)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "error: " in err and said in err and "Traceback" not in err


def test_a_document_without_the_markers_is_an_error_line(tmp_path, capsys) -> None:
    results = tmp_path / "soak.csv"
    write_runs(results, [])
    doc = tmp_path / "SCALING.md"
    doc.write_text("# no markers\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        soak_results.main(["--results", str(results), "--doc", str(doc)])
    assert "error: the document has no" in capsys.readouterr().err
    assert doc.read_text(encoding="utf-8") == "# no markers\n"


def test_a_results_file_of_other_columns_is_not_appended_to(tmp_path) -> None:
    path = tmp_path / "soak.csv"
    path.write_text("games,p99\n500,216\n", encoding="utf-8")
    with pytest.raises(ResultsError):
        soak_results.append_run(path, SoakRun(run="1", games="500"))
    assert path.read_text(encoding="utf-8") == "games,p99\n500,216\n"
