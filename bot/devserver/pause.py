"""The turn clocks of `make play` stand still while it is stopped.

Ctrl-C writes the moment the bot stopped (`data/play-stopped`, after the bot has
exited); the next `make play`, before it starts the bot, moves every running game's
clock (the turn's start, so its half-time and expiry, and a computer player's next step)
later by the time it was stopped, and bumps the game's version so that the bot, which
shows again at start-up what its messages do not show yet, redraws the "in 2 minutes".
A turn with 2 minutes left at Ctrl-C has 2 minutes left after the restart.

Only here, not in the bot: at a table on Discord a stopped process is not a stopped
table. Other shards or a second process may still be serving, a rolling deploy overlaps
the old process and the new, and a crash leaves no stop time; here one server owns the
one bot, and its Ctrl-C is exactly when the table closes. After a crash (no file) the
clocks have run on, as before.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from bot.sessions.clock import TurnClock
from bot.storage import StorageError, apply_migrations, open_database
from bot.storage.sessions import SessionStore, VersionConflict

STOPPED_FILE = "play-stopped"


def record_stop(data: Path, now: float) -> None:
    """Remember when the bot stopped (call once it has exited)."""
    (data / STOPPED_FILE).write_text(repr(now), encoding="utf-8")


async def resume(data: Path, database: Path, now: float) -> tuple[float, int]:
    """Move the running games' clocks past the time `make play` was stopped; the pause
    in seconds and how many games it moved (0, 0 if there was no clean stop)."""
    marker = data / STOPPED_FILE
    try:
        stopped = float(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0.0, 0
    finally:
        with contextlib.suppress(OSError):
            marker.unlink()
    pause = now - stopped
    if pause <= 0 or not database.exists():
        return 0.0, 0
    db = await open_database(f"sqlite:///{database}")
    try:
        await apply_migrations(db)  # as the bot would first: a newer release's columns
        return pause, await _shift(SessionStore(db), pause)
    except StorageError:
        return 0.0, 0
    finally:
        await db.close()


async def _shift(store: SessionStore, pause: float) -> int:
    moved = 0
    for row in await store.with_deadlines():
        clock = TurnClock.from_dict(row.state)
        if clock.turn_started is not None:
            clock.turn_started += pause
        if clock.bot_due is not None:
            clock.bot_due += pause
        row.state.update(clock.to_dict())
        assert row.deadline is not None  # with_deadlines: every row has one
        row.deadline += pause
        read_version = row.version
        row.version += 1
        try:
            await store.commit(row, read_version, 0, [], {})
        except VersionConflict:
            continue  # nothing else writes while the bot is stopped; never a reason to fail
        moved += 1
    return moved
