"""The container health check: a heartbeat file touched while connected, and its reader."""

from __future__ import annotations

import asyncio
import os

from bot.observability.heartbeat import check, keep_beating, main


def test_a_fresh_heartbeat_is_healthy_and_a_stale_or_missing_one_is_not(tmp_path, capsys):
    beat = tmp_path / "heartbeat"
    assert "does not exist" in (check(beat) or "")
    beat.touch()
    os.utime(beat, (1_000, 1_000))
    assert check(beat, max_age=60, now=1_030) is None
    assert "no heartbeat for 90 s" in (check(beat, max_age=60, now=1_090) or "")
    assert main([str(beat)]) == 1  # touched at 1000: long ago
    assert capsys.readouterr().err.startswith("error: no heartbeat")
    beat.touch()
    assert main([str(beat)]) == 0


async def test_the_bot_beats_only_while_connected(tmp_path):
    beat = tmp_path / "heartbeat"
    connected = False
    task = asyncio.create_task(keep_beating(beat, lambda: connected, every=0.01))
    await asyncio.sleep(0.05)
    assert not beat.exists()
    connected = True
    for _ in range(100):
        await asyncio.sleep(0.01)
        if beat.exists():
            break
    task.cancel()
    assert beat.exists()
