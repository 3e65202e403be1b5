"""benchmarks.bench_pictures: every emoji set and the end pictures, timed and sized."""

from __future__ import annotations

import re

import pytest

from benchmarks.bench_pictures import main
from bot.games.picker.pictures import picker_emojis
from bot.games.pickomino.pictures import pickomino_emojis


def test_it_draws_every_emoji_of_each_set_and_the_end_pictures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--repeats", "1"])
    lines = capsys.readouterr().out.splitlines()
    counts = {
        line.split("(")[0]: int(found.group(1))
        for line in lines
        if (found := re.search(r"(\d+) emojis", line))
    }
    assert counts == {
        "pickomino_emojis": len(pickomino_emojis()),
        "picker_emojis": len(picker_emojis()),
    }
    ends = [line for line in lines if line.startswith("end picture")]
    assert [line.split(",")[1].split()[0] for line in ends] == ["2", "4", "7"]
    assert all(re.search(r"median +\d+\.\d ms +\d+\.\d KiB$", line) for line in ends)
