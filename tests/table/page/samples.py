"""Scenes and page words as the table's scene code writes them (`python -m
tests.table.sample_scenes`, from the branch that builds the scenes), kept here in
samples.json so that the page's tests need neither the server nor the games: Pickomino
(lobby, mid-roll, a steal, the end; a bust, Extrawurm) and Picker (a round, the end, eight
players), in en, de and pl where the pictures are taken."""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

Scene = dict[str, Any]

_DATA = json.loads((Path(__file__).parent / "samples.json").read_text("utf-8"))
# The samples were made at this moment: their turn clocks count from it.
_MADE_MS = 1_800_000_000_000

WORDS: dict[str, dict[str, str]] = _DATA["words"]


def scene(name: str, lang: str = "en") -> Scene:
    """A copy of the sample, its turn clock running from now as it ran from its making."""
    for sample in _DATA["scenes"]:
        if sample["name"] == name and sample["language"] == lang:
            made: Scene = copy.deepcopy(sample["scene"])
            if made["clock"] is not None:
                made["clock"]["deadline"] += int(time.time() * 1000) - _MADE_MS
            return made
    raise KeyError(f"no sample {name!r} in {lang!r}")


def state(name: str, lang: str = "en", *, version: int = 10, session: int | None = 42) -> Scene:
    """The `state` frame of a sample."""
    return {"t": "state", "session": session, "version": version, "scene": scene(name, lang)}
