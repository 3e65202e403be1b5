"""Ctrl-C on `make play` and a start later: the running games' turn clocks moved on by
the time it was stopped, and only after a clean stop."""

from __future__ import annotations

from pathlib import Path

from bot.devserver import pause
from bot.storage import apply_migrations, open_database
from bot.storage.sessions import SessionRow, SessionStore

STOP = 1_800_000_000.0


async def _table(database: Path) -> None:
    db = await open_database(f"sqlite:///{database}")
    await apply_migrations(db)
    playing = {"turn_key": "p1", "turn_started": STOP - 60, "pinged": True, "strikes": {}}
    computer = {"turn_key": "p2", "turn_started": STOP - 5, "bot_due": STOP + 1}
    async with db.transaction() as connection:
        for channel, status, state, deadline in (
            (10, "playing", playing, STOP + 120),  # 2 minutes left at Ctrl-C
            (11, "playing", computer, STOP + 1),  # a computer player steps next
            (12, "lobby", {}, None),
        ):
            row = SessionRow(None, "pickomino", 1, channel, status, 3, state, deadline=deadline)
            await SessionStore.insert(connection, row)
    await db.close()


async def _rows(database: Path) -> dict[int, SessionRow]:
    db = await open_database(f"sqlite:///{database}")
    store = SessionStore(db)
    rows = {channel: await store.live_in_channel(channel) for channel in (10, 11, 12)}
    await db.close()
    return {channel: row for channel, row in rows.items() if row is not None}


async def test_a_turn_with_two_minutes_left_at_ctrl_c_has_two_minutes_after_a_restart(
    tmp_path: Path,
) -> None:
    database = tmp_path / "play.db"
    await _table(database)
    pause.record_stop(tmp_path, STOP)
    assert await pause.resume(tmp_path, database, STOP + 3600) == (3600.0, 2)
    rows = await _rows(database)
    timed = rows[10]
    assert timed.deadline == STOP + 3600 + 120
    assert timed.state["turn_started"] == STOP + 3600 - 60 and timed.state["pinged"]
    assert timed.version == 4  # the bot shows it again at start-up: the new "in 2 minutes"
    assert rows[11].state["bot_due"] == rows[11].deadline == STOP + 3600 + 1
    assert rows[12].version == 3 and rows[12].deadline is None
    # Used up: the next start without a clean stop moves nothing.
    assert await pause.resume(tmp_path, database, STOP + 7200) == (0.0, 0)
    assert (await _rows(database))[10].deadline == STOP + 3600 + 120


async def test_without_a_clean_stop_or_a_database_nothing_moves(tmp_path: Path) -> None:
    database = tmp_path / "play.db"
    assert await pause.resume(tmp_path, database, STOP) == (0.0, 0)  # a new table
    pause.record_stop(tmp_path, STOP)
    assert await pause.resume(tmp_path, database, STOP + 10) == (0.0, 0)  # no games yet
    await _table(database)
    (tmp_path / pause.STOPPED_FILE).write_text("not a time")
    assert await pause.resume(tmp_path, database, STOP + 10) == (0.0, 0)
    assert (await _rows(database))[10].deadline == STOP + 120
