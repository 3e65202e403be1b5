"""Picker's kept tables as a first start leaves its cache folder, for benchmarks' tests."""

from pathlib import Path

import numpy as np

from bot.games.picker.ai import exact


def kept_picker_tables(folder: Path) -> None:
    """A kept file as a first start leaves it, with stand-ins for the starting tables
    (building the real ones takes the full minute)."""
    tables = exact.Tables()
    for memo in tables.pairs.values():
        for first in range(exact.PLAYERS):
            memo.tables[0, (first, (0, 0, 0))] = np.full((3, 3), first / 3, np.float32)
    tables.save(folder / exact.CACHE_NAME)
