"""bench_history fills a server's history and times every score query against 50 ms."""

import re

from benchmarks import bench_history

ROW = re.compile(r"(.+?) +(\d+\.\d\d) +(\d+\.\d\d)")


def test_it_times_every_query_and_says_whether_the_worst_met_the_target(capsys) -> None:
    bench_history.main(["--games", "30", "--players", "10", "--runs", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(
        r"30 games, \d+ seats, 10 players: built in [\d.]+ s, written in [\d.]+ s \(\d+ MB\)",
        lines[0],
    )
    start = lines.index(f"{'query':<36} {'p50 ms':>8} {'p99 ms':>8}")
    rows = [ROW.fullmatch(line) for line in lines[start + 1 :]]
    queries = {row[1]: (float(row[2]), float(row[3])) for row in rows if row is not None}
    # 5 history pages, 4 rankings x 3 periods, 4 variant filters, a player, a story
    assert len(queries) == 5 + 12 + 4 + 2
    assert all(0 < p50 <= p99 for p50, p99 in queries.values())
    worst = max(p99 for _, p99 in queries.values())
    verdict = "met" if worst < 50 else "MISSED"
    assert lines[-1] == f"worst p99: {worst:.2f} ms (target under 50 ms: {verdict})"
    assert sum("window built on first use" in line for line in lines) == 2
    assert sum("window rolled forward a day" in line for line in lines) == 2
