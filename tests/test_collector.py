"""The garbage collector as the bot leaves it after start-up: what start-up built frozen,
and the full collections of what came after ten times rarer than Python's default."""

from __future__ import annotations

import gc

from bot.client import FULL_COLLECTION_AFTER, freeze_startup_objects

PYTHONS_DEFAULT = (700, 10, 10)


def full_collections_while_keeping(count: int) -> int:
    """How many full collections run while `count` new containers are made and kept
    (each grows old: the sessions and interactions a busy bot keeps for seconds)."""
    fulls: list[int] = []

    def counted(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            fulls.append(1)

    gc.callbacks.append(counted)
    try:
        kept = [[] for _ in range(count)]
    finally:
        gc.callbacks.remove(counted)
    assert len(kept) == count
    return len(fulls)


def test_full_collections_are_ten_times_rarer_after_start_up() -> None:
    saved = gc.get_threshold()
    try:
        gc.collect()
        gc.freeze()  # as at the bot's start-up: only what comes after is walked
        gc.set_threshold(*PYTHONS_DEFAULT)
        by_default = full_collections_while_keeping(400_000)
        freeze_startup_objects()
        after_start_up = full_collections_while_keeping(400_000)
        assert gc.get_threshold() == (700, 10, FULL_COLLECTION_AFTER)
    finally:
        gc.set_threshold(*saved)
        gc.unfreeze()
    assert by_default >= 3
    assert after_start_up * 5 <= by_default
