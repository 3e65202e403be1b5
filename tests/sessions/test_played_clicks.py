"""A session keeps the ids of the last clicks that changed it, with its state: a process
that died between a click's commit and its journal's mark of it
(bot.connection.inflight) leaves a click its successor can still find played."""

from __future__ import annotations

from bot.games.pickomino.plugin import PICKOMINO
from bot.sessions.model import CLICKS_KEPT, Seat, Session

SNOWFLAKE = 1_578_582_425_645_088_767  # an interaction id, past what a float holds exactly


def _session() -> Session:
    return Session("pickomino", guild_id=1, channel_id=2, host_id=3, seats=[Seat(3, "A")])


def test_the_last_clicks_are_kept_oldest_first():
    session = _session()
    for offset in range(CLICKS_KEPT + 2):
        session.played(SNOWFLAKE + offset)
    assert session.clicks == tuple(SNOWFLAKE + offset for offset in range(2, CLICKS_KEPT + 2))


def test_the_clicks_are_stored_and_read_back_exactly():
    adapter = PICKOMINO.adapter
    session = _session()
    session.played(SNOWFLAKE)
    row = session.to_row(adapter)
    assert Session.from_row(row, adapter).clicks == (SNOWFLAKE,)


def test_a_draft_changes_without_touching_the_committed_session():
    adapter = PICKOMINO.adapter
    committed = _session()
    committed.played(SNOWFLAKE)
    draft = committed.copy(adapter)
    draft.played(SNOWFLAKE + 1)
    assert committed.clicks == (SNOWFLAKE,)
    assert draft.clicks == (SNOWFLAKE, SNOWFLAKE + 1)


def test_a_row_from_before_has_no_clicks_and_a_session_without_them_stores_none():
    adapter = PICKOMINO.adapter
    row = _session().to_row(adapter)
    assert "clicks" not in row.state  # every other stored state stays as it was
    assert Session.from_row(row, adapter).clicks == ()
