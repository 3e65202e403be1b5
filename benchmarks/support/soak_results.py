"""The soak runs' figures as data: one row a run in `benchmarks/results/soak.csv`, and
the table of them that docs/SCALING.md shows.

`bench_soak` appends its run's row when the run ends (`record`). The command

    python -m benchmarks.support.soak_results [--results FILE] [--doc FILE]

writes the table of the latest numbered run of each size that lasted 30 minutes or more
into docs/SCALING.md, between its two marker comments; a test checks the two agree.

An empty cell is a figure the run did not give: the rows before bench_soak recorded its
own were copied from the prose that described them, and the runs before the numbered
series have no number. The RSS growth is each
process's, from the fitted line after the warm-up (5 minutes, or a fifth of a shorter
run), as bench_soak prints it. A fault's recovery is how many seconds after the restart
the callbacks' p99 came back under 300 ms and stayed there (`>60`: not within the minute
the benchmark watches), and whether that met the 30 s rule.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import datetime
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "benchmarks" / "results" / "soak.csv"
DOC = REPO / "docs" / "SCALING.md"
BEGIN = "<!-- soak results: written by python -m benchmarks.support.soak_results -->"
END = "<!-- end of soak results -->"
LONG_RUN_MINUTES = 30.0
NEVER_BACK = ">60"  # the benchmark watches a fault's recovery for a minute


class ResultsError(ValueError):
    """A results file or a document this module cannot use; the message says why."""


@dataclass(frozen=True)
class SoakRun:
    """One soak run, each figure as its cell's text ("" where the run gave none)."""

    run: str = ""
    date: str = ""
    commit: str = ""
    command: str = ""
    games: str = ""
    processes: str = ""
    minutes: str = ""
    db_kill_minute: str = ""
    process_kill_minute: str = ""
    clicks_per_s: str = ""
    bot_cpu_ms_per_click: str = ""
    db_cpu_ms_per_click: str = ""
    p50_ms: str = ""
    p99_ms: str = ""
    late: str = ""
    stuck: str = ""
    lost: str = ""
    sessions: str = ""
    rss_growth: str = ""
    db_down_s: str = ""
    db_unanswered: str = ""
    db_recovery_s: str = ""
    db_recovery_met: str = ""
    process_down_s: str = ""
    process_unanswered: str = ""
    process_recovery_s: str = ""
    process_recovery_met: str = ""
    note: str = ""


COLUMNS = tuple(field.name for field in dataclasses.fields(SoakRun))
_WHOLE = re.compile(r"\d+")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


# ---------------------------------------------------------------------- the file


def read_runs(path: Path) -> list[SoakRun]:
    """Every run in the file, in its order; a file that is missing, of other columns or
    with a malformed figure is a ResultsError naming the line."""
    try:
        with path.open(newline="", encoding="utf-8") as file:
            reader = csv.reader(file)
            header = next(reader, None)
            if header is None or tuple(header) != COLUMNS:
                raise ResultsError(f"{path}: the first line is not the columns {','.join(COLUMNS)}")
            runs = []
            for cells in reader:
                line = reader.line_num
                if len(cells) != len(COLUMNS):
                    raise ResultsError(
                        f"{path}, line {line}: {len(cells)} cells, not {len(COLUMNS)}"
                    )
                runs.append(_checked(SoakRun(*cells), f"{path}, line {line}"))
    except OSError as error:
        raise ResultsError(f"{path}: {error.strerror or error}") from None
    except (csv.Error, UnicodeDecodeError) as error:
        raise ResultsError(f"{path}: not a CSV file ({error})") from None
    return runs


def _checked(run: SoakRun, where: str) -> SoakRun:
    """The run, if each cell that must be a number is one (or empty)."""
    for name in ("run", "games", "processes", "late", "stuck", "lost", "sessions"):
        value = getattr(run, name)
        if value and not _WHOLE.fullmatch(value):
            raise ResultsError(f"{where}: {name} {value!r} is not a whole number")
    for name in ("minutes", "p50_ms", "p99_ms", "db_down_s", "process_down_s"):
        value = getattr(run, name)
        if value and not _NUMBER.fullmatch(value):
            raise ResultsError(f"{where}: {name} {value!r} is not a number")
    if run.date and not _DATE.fullmatch(run.date):
        raise ResultsError(f"{where}: date {run.date!r} is not YYYY-MM-DD")
    if not run.games:
        raise ResultsError(f"{where}: a run needs its number of games")
    return run


def append_run(path: Path, run: SoakRun) -> None:
    """Add the run as the file's last line (a new file gets the columns first)."""
    if path.exists():
        read_runs(path)  # not appended to a file of other columns
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_runs(path, [])
    with path.open("a", newline="", encoding="utf-8") as file:
        csv.writer(file, lineterminator="\n").writerow(dataclasses.astuple(run))


def write_runs(path: Path, runs: Iterable[SoakRun]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(dataclasses.astuple(run) for run in runs)


def next_number(runs: Iterable[SoakRun]) -> int:
    """The number the next recorded run takes: one past the highest so far."""
    return max((int(run.run) for run in runs if run.run), default=0) + 1


# ---------------------------------------------------------------------- a run's row


def run_from_report(
    report: Mapping[str, Any], *, number: int, date: str, commit: str, command: str
) -> SoakRun:
    """The row of a bench_soak report (its report.json)."""
    whole = report["whole_run"]
    faults = {fault["kind"]: fault for fault in report["faults"]}
    lost = report.get("lost")
    return SoakRun(
        run=str(number),
        date=date,
        commit=commit,
        command=command,
        games=str(whole["games"]),
        processes=str(whole["processes"]),
        minutes=f"{round(whole['minutes'], 1):g}",
        db_kill_minute=_kill_minute(faults.get("database")),
        process_kill_minute=_kill_minute(faults.get("process")),
        clicks_per_s=_figure(whole["clicks_per_second"], 1),
        bot_cpu_ms_per_click=_figure(whole["cpu_ms_per_click"], 1),
        db_cpu_ms_per_click=_figure(whole["database_cpu_ms_per_click"], 1),
        p50_ms=_figure(whole["p50_ms"], 0),
        p99_ms=_figure(whole["p99_ms"], 0),
        late=str(whole["late"]),
        stuck=str(whole["stuck"]),
        lost="" if lost is None else str(lost["clicks_lost"] + lost["messages_ahead"]),
        sessions="" if lost is None else str(lost["accepted_sessions"]),
        rss_growth=" / ".join(
            "" if p["rss_growth_after_warm_up"] is None else f"{p['rss_growth_after_warm_up']:+.1%}"
            for p in report["processes"]
        ),
        **_recovery("db", faults.get("database")),
        **_recovery("process", faults.get("process")),
    )


def _kill_minute(fault: Mapping[str, Any] | None) -> str:
    return "" if fault is None else f"{fault['minute']:g}"


def _figure(value: float | None, digits: int) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _recovery(prefix: str, fault: Mapping[str, Any] | None) -> dict[str, str]:
    if fault is None:
        return {}
    back = fault["p99_under_300_ms_after_seconds"]
    return {
        f"{prefix}_down_s": _figure(fault["down_seconds"], 1),
        f"{prefix}_unanswered": str(fault["unanswered_clicks"]),
        f"{prefix}_recovery_s": NEVER_BACK if back is None else f"{back:.0f}",
        f"{prefix}_recovery_met": "yes" if fault["within_30_s"] else "no",
    }


def record(report: Mapping[str, Any], argv: Sequence[str], path: Path) -> SoakRun:
    """Append a finished soak's row to the results file, numbered after the last, with
    today's date, the checkout's commit and the command that ran it."""
    runs = read_runs(path) if path.exists() else []
    run = run_from_report(
        report,
        number=next_number(runs),
        date=datetime.date.today().isoformat(),
        commit=checkout_commit(),
        command=" ".join(["python -m benchmarks.bench_soak", *argv]),
    )
    append_run(path, run)
    return run


def checkout_commit() -> str:
    """The repository's HEAD, abbreviated ("" outside a git checkout)."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return ""
    return done.stdout.strip()


# ---------------------------------------------------------------------- the table


def latest_long_runs(runs: Iterable[SoakRun], minutes: float = LONG_RUN_MINUTES) -> list[SoakRun]:
    """The last numbered run in the file at each number of games among those of
    `minutes` or more, by games: what the code carries at each size, not its history.
    (The unnumbered rows are the runs before the soak's series; bench_soak numbers its
    own.)"""
    latest: dict[int, SoakRun] = {}
    for run in runs:
        if run.run and run.minutes and float(run.minutes) >= minutes:
            latest[int(run.games)] = run
    return [latest[games] for games in sorted(latest)]


def render_table(runs: Iterable[SoakRun]) -> str:
    """The runs as a markdown table, one line a run."""
    lines = [
        "| run | date | commit | games | processes | minutes | faults at minute "
        "| p50 ms | p99 ms | late | stuck | lost | RSS growth | database back | process back |",
        "|" + "---|" * 15,
    ]
    for run in runs:
        cells = [
            run.run or "-",
            run.date or "-",
            run.commit or "-",
            run.games,
            run.processes or "-",
            run.minutes,
            _faults(run),
            run.p50_ms or "-",
            run.p99_ms or "-",
            run.late or "-",
            run.stuck or "-",
            _lost(run),
            run.rss_growth or "-",
            _back(run.db_kill_minute, run.db_recovery_s, run.db_recovery_met),
            _back(run.process_kill_minute, run.process_recovery_s, run.process_recovery_met),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _lost(run: SoakRun) -> str:
    if run.lost and run.sessions:
        return f"{run.lost} of {int(run.sessions):,}"
    return run.lost or "-"


def _faults(run: SoakRun) -> str:
    kills = [
        f"{what} {minute}"
        for what, minute in (("database", run.db_kill_minute), ("process", run.process_kill_minute))
        if minute
    ]
    return ", ".join(kills) or "none"


def _back(kill_minute: str, seconds: str, met: str) -> str:
    """A fault's recovery as the table says it: "5 s (met)", "over a minute (not met)"."""
    if not kill_minute:
        return ""
    said = {"": "", NEVER_BACK: "over a minute"}.get(seconds, f"{seconds} s")
    verdict = {"yes": "met", "no": "not met"}.get(met, "")
    if said and verdict:
        return f"{said} ({verdict})"
    return said or verdict or "-"


def with_table(doc: str, table: str) -> str:
    """The document with the text between its two markers replaced by the table."""
    begin, end = doc.find(BEGIN), doc.find(END)
    if begin < 0 or end < begin:
        raise ResultsError(f"the document has no {BEGIN!r} followed by {END!r}")
    return doc[: begin + len(BEGIN)] + "\n" + table + "\n" + doc[end:]


def table_in(doc: str) -> str:
    """The text between the document's two markers, as `with_table` writes it."""
    begin, end = doc.find(BEGIN), doc.find(END)
    if begin < 0 or end < begin:
        raise ResultsError(f"the document has no {BEGIN!r} followed by {END!r}")
    return doc[begin + len(BEGIN) : end].strip("\n")


# ---------------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=RESULTS, help="the runs' CSV file")
    parser.add_argument("--doc", type=Path, default=DOC, help="the document to write into")
    options = parser.parse_args(argv)
    try:
        runs = latest_long_runs(read_runs(options.results))
        doc = options.doc.read_text(encoding="utf-8")
        written = with_table(doc, render_table(runs))
    except OSError as error:
        parser.error(f"{options.doc}: {error.strerror or error}")
    except ResultsError as error:
        parser.error(str(error))
    if written == doc:
        print(f"{options.doc}: the table of {len(runs)} runs is up to date")
        return
    options.doc.write_text(written, encoding="utf-8")
    print(f"{options.doc}: the table of {len(runs)} runs written")


if __name__ == "__main__":
    main(sys.argv[1:])
