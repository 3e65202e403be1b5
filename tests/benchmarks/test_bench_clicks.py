"""bench_clicks runs the bot process against its stand-in of Discord and prints what a
click costs it, and the clicks' times by kind."""

import re

from benchmarks import bench_clicks


def test_a_short_window_prints_the_cost_and_times_of_its_clicks(capsys) -> None:
    bench_clicks.main(["--games", "2", "--clicks", "30", "--warmup", "0", "--repeats", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"  run 1 \S+: bot CPU/click [\d.]+ ms, \d+ clicks/s", lines[0])
    report = lines[1:]
    assert re.fullmatch(r"bot \S+: 2 games, 1 in flight; median of 1 runs of 30 clicks", report[0])
    cpu = re.fullmatch(
        r"  bot CPU/click ([\d.]+) ms \(user [\d.]+, system [\d.]+\): \d+ clicks/s for one bot "
        r"process",
        report[1],
    )
    assert cpu is not None and float(cpu[1]) > 0, report[1]
    assert re.fullmatch(r"  stand-in \+ players CPU/click [\d.]+ ms", report[2])
    assert re.fullmatch(r"  wall clock: \d+ clicks/s", report[3])
    kinds = [
        re.fullmatch(r"  (\S+) +(\d+) clicks: p50 ([\d.]+) ms, p99 ([\d.]+) ms", line)
        for line in report[4:]
    ]
    assert all(kinds), report[4:]  # and no "!" line: no error in the bot's log
    assert sum(int(kind[2]) for kind in kinds) == 30
    assert all(0 < float(kind[3]) <= float(kind[4]) for kind in kinds)
    assert "move" in [kind[1] for kind in kinds]
