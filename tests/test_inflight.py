"""The journal of interactions not yet answered (bot.inflight): written as each arrives,
marked when its change commits, gone when Discord takes its answer, and acted on by the
next process when its predecessor died holding it."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.inflight import FORGET_SECONDS, Inflight, callback_interaction, folder_for


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def made(seconds_ago: float = 0.0) -> dict[str, Any]:
    """An interaction's gateway payload, its id made `seconds_ago`."""
    when = datetime.now(UTC) - timedelta(seconds=seconds_ago)
    snowflake = discord.utils.time_snowflake(when, high=True)
    return {"id": str(snowflake), "type": 3, "token": "t0k3n", "data": {"custom_id": "pko:x"}}


def fake_client(parsed: list[dict[str, Any]]) -> discord.Client:
    """What Inflight reads of a client: discord.py's parsers, the interaction's here."""
    parsers = {"INTERACTION_CREATE": parsed.append}
    return cast(discord.Client, SimpleNamespace(_connection=SimpleNamespace(parsers=parsers)))


def journal(folder: Path, clock: Clock | None = None) -> Inflight:
    inflight = Inflight(folder, clock=clock or Clock())
    assert inflight.take() == []
    return inflight


def test_each_interaction_is_kept_until_its_callback_is_answered(tmp_path: Path) -> None:
    inflight = journal(tmp_path)
    data = made()
    inflight.received(data)
    (kept,) = tmp_path.glob("*.json")
    assert kept.name == f"{data['id']}.json"
    assert kept.read_bytes().decode().startswith('{"id":')

    inflight.answered_at(f"/api/v10/interactions/{data['id']}/t0k3n/callback?with_response=1")
    assert list(tmp_path.glob("*.json")) == [kept], "a query string is not the path"
    inflight.answered_at(f"/api/v10/webhooks/1/t0k3n/messages/{data['id']}")
    assert list(tmp_path.glob("*.json")) == [kept], "a follow-up is no first answer"
    inflight.answered_at(f"/api/v10/interactions/{data['id']}/t0k3n/callback")
    assert list(tmp_path.glob("*.json")) == []


def test_the_change_of_the_interaction_being_handled_is_marked_committed(
    tmp_path: Path,
) -> None:
    inflight = journal(tmp_path)
    parsed: list[dict[str, Any]] = []
    client = fake_client(parsed)
    handling = made()

    def parse_and_commit(data: dict[str, Any]) -> None:
        parsed.append(data)
        inflight.committed()  # as a task started for the interaction would

    client._connection.parsers["INTERACTION_CREATE"] = parse_and_commit
    inflight.watch(client)
    inflight.committed()  # a timer's change: no interaction is being handled
    client._connection.parsers["INTERACTION_CREATE"](handling)
    assert parsed == [handling]
    assert [path.name for path in tmp_path.glob("*.json")] == [f"{handling['id']}.committed.json"]
    inflight.answered(int(handling["id"]))
    assert list(tmp_path.glob("*.json")) == []


def test_the_next_process_acts_on_what_its_predecessor_left_unanswered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    before = journal(tmp_path)
    fresh, committed, too_old = made(0.5), made(0.6), made(4.0)
    for data in (fresh, committed, too_old):
        before.received(data)
    path = tmp_path / f"{committed['id']}.json"
    path.rename(tmp_path / f"{committed['id']}.committed.json")
    (tmp_path / "17.json").write_text('{"id": "17", "type"')  # cut short
    before.close()  # the process dies: its lock goes, its files stay

    parsed: list[dict[str, Any]] = []
    after = Inflight(tmp_path, clock=Clock())
    client = fake_client(parsed)
    after.watch(client)
    assert after.replay(client, after.take()) == 2
    assert sorted(data["id"] for data in parsed) == sorted([fresh["id"], committed["id"]])
    assert after.committed_before(int(committed["id"]))
    assert not after.committed_before(int(committed["id"])), "told once"
    assert not after.committed_before(int(fresh["id"]))
    assert "17.json is not an interaction" in caplog.text
    assert "too late to answer" in caplog.text
    # Acted on again, so journaled again, in the state they were in.
    names = sorted(path.name for path in tmp_path.glob("*.json"))
    assert names == sorted([f"{fresh['id']}.json", f"{committed['id']}.committed.json"])


def test_a_live_predecessor_keeps_its_clicks(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A deploy that starts the new process before the old one stops: the old one is
    still answering its clicks, so the new one neither acts on them nor journals."""
    before = journal(tmp_path)
    before.received(made(0.1))
    after = Inflight(tmp_path)
    assert after.take() == []
    assert "locked by another process" in caplog.text
    after.received(made())
    assert len(list(tmp_path.glob("*.json"))) == 1 and not after.journaling
    before.close()


def test_an_interaction_never_seen_answered_is_forgotten(tmp_path: Path) -> None:
    clock = Clock()
    inflight = journal(tmp_path, clock)
    unanswered = made(0.1)
    inflight.received(unanswered)
    clock.now += FORGET_SECONDS + 1
    later = made()
    inflight.received(later)
    assert [path.name for path in tmp_path.glob("*.json")] == [f"{later['id']}.json"]


def test_an_unwritable_folder_is_said_and_changes_nothing_else(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    inflight = Inflight(blocked / "inflight")
    assert inflight.take() == []
    assert "cannot keep the interactions in flight" in caplog.text
    data = made()
    assert inflight.received(data) == int(data["id"])


@pytest.mark.parametrize(
    ("path", "interaction_id"),
    [
        ("/api/v10/interactions/123/abc/callback", 123),
        ("/interactions/9/tok/callback", 9),
        ("/api/v10/interactions/x/abc/callback", None),
        ("/api/v10/webhooks/1/abc/callback", None),
        ("/callback", None),
        ("/api/v10/channels/1/messages", None),
    ],
)
def test_a_callback_path_names_its_interaction(path: str, interaction_id: int | None) -> None:
    assert callback_interaction(path) == interaction_id


def test_each_process_journals_in_a_folder_of_its_shards(tmp_path: Path) -> None:
    assert folder_for(tmp_path, None, 1) == tmp_path / "inflight-0-of-1"
    assert folder_for(tmp_path, (2, 3), 4) == tmp_path / "inflight-2-3-of-4"
