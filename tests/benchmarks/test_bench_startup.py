"""bench_startup times, each in fresh processes, the work a start does beside its clicks."""

import re

import pytest

from benchmarks import bench_startup
from tests.benchmarks.stand_in_tables import kept_picker_tables


def test_it_prints_each_parts_median_and_their_sum(tmp_path, capsys) -> None:
    kept_picker_tables(tmp_path)
    bench_startup.main(["--repeats", "1", "--cache-dir", str(tmp_path)])
    said = capsys.readouterr().out
    line = re.compile(r"^  (.+?)\s+([\d.]+) ms wall\s+([\d.]+) ms CPU$", re.M)
    parts = {name: (float(wall), float(cpu)) for name, wall, cpu in line.findall(said)}
    assert list(parts) == [part.name for part in bench_startup.PARTS]
    assert all(wall >= 0 and cpu >= 0 for wall, cpu in parts.values())
    assert parts["imports (import bot.app.client)"][1] > 0
    assert parts["Pickomino's tables (ai.warm_up)"][1] > 0
    together = float(re.search(r"together\s+([\d.]+) ms CPU", said).group(1))
    assert together == pytest.approx(sum(cpu for _, cpu in parts.values()), abs=0.3)
    assert "building Picker's tables" not in said  # the kept file was loaded


def test_a_folder_that_is_not_a_checkout_is_an_error_line(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_startup.main(["--bot-dir", str(tmp_path)])
    assert exit_.value.code == 2
    assert "is not a checkout of this bot" in capsys.readouterr().err
