"""A session keeps its language in its stored state; rows from before languages read
as English, and a code we do not speak reads as English too."""

from __future__ import annotations

from bot.games.picker.plugin import PICKER
from bot.sessions.model import Seat, Session


def _session(**fields: object) -> Session:
    return Session("picker", guild_id=1, channel_id=2, host_id=3, seats=[Seat(3, "A")], **fields)


def test_the_language_is_stored_and_read_back():
    adapter = PICKER.adapter
    row = _session(language="pl").to_row(adapter)
    assert row.state["language"] == "pl"
    assert Session.from_row(row, adapter).language == "pl"


def test_a_row_without_a_language_or_with_an_unknown_one_reads_as_english():
    adapter = PICKER.adapter
    row = _session(language="de").to_row(adapter)
    del row.state["language"]
    assert Session.from_row(row, adapter).language == "en"
    row.state["language"] = "tlh"
    assert Session.from_row(row, adapter).language == "en"
