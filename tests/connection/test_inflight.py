"""The journal of interactions not yet answered (bot.connection.inflight): written as
each arrives, marked when its change commits, crossed out when Discord takes its answer,
and acted on by the next process when its predecessor died holding it."""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.connection.inflight import (
    FORGET_SECONDS,
    JOURNAL,
    SLOT_BYTES,
    SLOTS,
    Held,
    Inflight,
    Replayed,
    callback_interaction,
    folder_for,
)

APPLICATION_ID = 900_000_000_000_000_001


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def made(seconds_ago: float = 0.0, **more: Any) -> dict[str, Any]:
    """An interaction's gateway payload, its id made `seconds_ago`."""
    when = datetime.now(UTC) - timedelta(seconds=seconds_ago)
    snowflake = discord.utils.time_snowflake(when, high=True)
    return {
        "id": str(snowflake),
        "application_id": str(APPLICATION_ID),
        "type": 3,
        "token": "t0k3n",
        "data": {"x": 1},
        **more,
    }


def fake_client(parsed: list[dict[str, Any]]) -> discord.Client:
    """What Inflight reads of a client: discord.py's parsers, the interaction's here,
    and its application's id."""
    parsers = {"INTERACTION_CREATE": parsed.append}
    return cast(
        discord.Client,
        SimpleNamespace(
            _connection=SimpleNamespace(parsers=parsers), application_id=APPLICATION_ID
        ),
    )


def journal(folder: Path, clock: Clock | None = None) -> Inflight:
    inflight = Inflight(folder, clock=clock or Clock())
    assert inflight.take() == []
    return inflight


def left_ids(folder: Path) -> list[tuple[int, bool]]:
    """What a successor would find: each interaction's id, and whether it committed."""
    successor = Inflight(folder)
    found = successor.take()
    successor.close()
    return sorted((int(json.loads(each.data)["id"]), each.committed) for each in found)


def test_each_interaction_is_kept_until_its_callback_is_answered(tmp_path: Path) -> None:
    inflight = journal(tmp_path)
    data, other = made(0.2), made()
    inflight.received(data)
    inflight.received(other)
    assert (tmp_path / JOURNAL).stat().st_size == SLOTS * SLOT_BYTES
    inflight.answered_at(f"/api/v10/webhooks/1/t0k3n/messages/{data['id']}")  # no answer
    inflight.answered_at(f"/api/v10/interactions/{data['id']}/t0k3n/callback")
    inflight.close()  # the process dies
    assert left_ids(tmp_path) == [(int(other["id"]), False)]


def test_the_change_of_the_interaction_being_handled_is_marked_committed(
    tmp_path: Path,
) -> None:
    inflight = journal(tmp_path)
    parsed: list[dict[str, Any]] = []
    client = fake_client(parsed)
    handling, waiting = made(0.2), made()

    def parse_and_commit(data: dict[str, Any]) -> None:
        parsed.append(data)
        if data is handling:
            inflight.committed()  # as a task started for the interaction would

    client._connection.parsers["INTERACTION_CREATE"] = parse_and_commit
    inflight.watch(client)
    inflight.committed()  # a timer's change: no interaction is being handled
    client._connection.parsers["INTERACTION_CREATE"](handling)
    client._connection.parsers["INTERACTION_CREATE"](waiting)
    assert parsed == [handling, waiting]
    inflight.close()
    assert left_ids(tmp_path) == [(int(handling["id"]), True), (int(waiting["id"]), False)]


def test_the_next_process_acts_on_what_its_predecessor_left_unanswered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    before = journal(tmp_path)
    client_before = fake_client([])
    committed, fresh, too_old = made(0.6), made(0.5), made(4.0)
    parsers = client_before._connection.parsers

    def parse_and_commit(data: dict[str, Any]) -> None:
        if data is committed:
            before.committed()

    parsers["INTERACTION_CREATE"] = parse_and_commit
    before.watch(client_before)
    for data in (fresh, committed, too_old):
        parsers["INTERACTION_CREATE"](data)
    before.close()  # the process dies: its lock goes, its journal stays

    parsed: list[dict[str, Any]] = []
    after = Inflight(tmp_path, clock=Clock())
    client = fake_client(parsed)
    after.watch(client)
    assert after.replay(client, after.read(after.take())) == 2
    assert [data["id"] for data in parsed] == [committed["id"], fresh["id"]], "oldest first"
    assert after.replayed(int(committed["id"])) == Replayed(committed=True, acknowledged=False)
    assert after.replayed(int(committed["id"])) is None, "told once"
    assert after.replayed(int(fresh["id"])) == Replayed(committed=False, acknowledged=False)
    assert "too late to answer" in caplog.text
    # Acted on again, so journaled again, in the state they were in.
    after.close()
    assert left_ids(tmp_path) == [(int(committed["id"]), True), (int(fresh["id"]), False)]


def test_an_interaction_made_for_another_application_is_not_acted_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A journal a stand-in's run left (its own application id), read by the bot on
    # Discord within the seconds an answer is still possible.
    caplog.set_level(logging.INFO)
    before = journal(tmp_path)
    ours, stand_ins = made(0.3), made(0.2, application_id="123456789012345678")
    before.received(ours)
    before.received(stand_ins)
    before.close()

    parsed: list[dict[str, Any]] = []
    after = Inflight(tmp_path, clock=Clock())
    assert after.replay(fake_client(parsed), after.read(after.take())) == 1
    assert [data["id"] for data in parsed] == [ours["id"]]
    assert "made for application 123456789012345678, not this one" in caplog.text
    after.close()


def left_behind(folder: Path, *interactions: dict[str, Any]) -> Inflight:
    """A successor of a process that died holding `interactions` (none committed)."""
    before = journal(folder)
    for data in interactions:
        before.received(data)
    before.close()
    return Inflight(folder, clock=Clock())


class Acknowledging:
    """Discord's answers to the early acknowledgements: by interaction id, False
    (nothing left to answer) or an exception to raise; else the acknowledgement is
    taken. Records what was asked, and how many at once."""

    def __init__(self, refusals: dict[str, bool | BaseException] | None = None) -> None:
        self.refusals = refusals or {}
        self.asked: list[str] = []
        self.in_flight = 0
        self.most_at_once = 0

    async def __call__(self, held: Held) -> bool:
        self.asked.append(str(held.interaction_id))
        self.in_flight += 1
        self.most_at_once = max(self.most_at_once, self.in_flight)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        refusal = self.refusals.get(str(held.interaction_id), True)
        if isinstance(refusal, BaseException):
            raise refusal
        return refusal


async def test_what_can_be_answered_later_is_acknowledged_at_once_all_together(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    move, command, too_old = made(1.0), made(0.9, type=2), made(2.8)
    after = left_behind(tmp_path, move, command, too_old)
    answers = Acknowledging()
    held = after.read(after.take())
    kept = await after.acknowledge(held, answers, early=lambda each: each.data["type"] == 3)
    assert sorted(answers.asked) == [move["id"]], "not the command, not the one too old"
    assert [(str(each.interaction_id), each.acknowledged) for each in kept] == [
        (too_old["id"], False),
        (move["id"], True),
        (command["id"], False),
    ]
    assert "acknowledged 1 of 3 interactions" in caplog.text
    # Played later, when the process can: the acknowledged one whatever its age now,
    # the others only within their 3 s (the one too old is dropped there).
    parsed: list[dict[str, Any]] = []
    client = fake_client(parsed)
    after.watch(client)  # journaled again as they are acted on
    assert after.replay(client, kept) == 2
    assert [data["id"] for data in parsed] == [move["id"], command["id"]]
    assert after.replayed(int(move["id"])) == Replayed(committed=False, acknowledged=True)
    assert after.replayed(int(command["id"])) == Replayed(committed=False, acknowledged=False)
    # The acknowledged one was answered: a successor would not find it.
    after.close()
    assert left_ids(tmp_path) == [(int(command["id"]), False)]


async def test_acknowledgements_go_out_together_not_one_after_another(tmp_path: Path) -> None:
    clicks = [made(1.0 - index * 0.01) for index in range(5)]
    after = left_behind(tmp_path, *clicks)
    answers = Acknowledging()
    held = after.read(after.take())
    await after.acknowledge(held, answers, early=lambda each: True)
    assert answers.most_at_once == 5
    after.close()


async def test_an_acknowledgement_discord_refuses_says_what_is_left_to_do(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answered, failing, fine = made(1.2), made(1.0), made(0.9)
    after = left_behind(tmp_path, answered, failing, fine)
    answers = Acknowledging(
        {
            answered["id"]: False,  # answered already, or too late: nothing left to do
            failing["id"]: OSError("connection reset"),  # played later, as it can be
        }
    )
    held = after.read(after.take())
    kept = await after.acknowledge(held, answers, early=lambda each: True)
    assert [(str(each.interaction_id), each.acknowledged) for each in kept] == [
        (failing["id"], False),
        (fine["id"], True),
    ]
    assert "could not acknowledge" in caplog.text
    after.close()


async def test_a_cancelled_start_is_not_taken_for_a_refusal(tmp_path: Path) -> None:
    after = left_behind(tmp_path, made(0.5))

    async def cancelled(held: Held) -> bool:
        raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        held = after.read(after.take())
        await after.acknowledge(held, cancelled, early=lambda each: True)
    after.close()


def test_a_slot_cut_short_is_dropped_unread(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    before = journal(tmp_path)
    before.received(made())
    before.close()
    with (tmp_path / JOURNAL).open("r+b") as file:  # as a machine crash might leave it
        file.seek(5 + 10)
        file.write(b"\0" * 20)
    after = Inflight(tmp_path)
    parsed: list[dict[str, Any]] = []
    assert after.replay(fake_client(parsed), after.read(after.take())) == 0
    assert parsed == [] and "unreadable" in caplog.text


def test_a_live_predecessor_keeps_its_clicks(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A deploy that starts the new process before the old one stops: the old one is
    still answering its clicks, so the new one neither acts on them nor journals."""
    before = journal(tmp_path)
    kept = made(0.1)
    before.received(kept)
    after = Inflight(tmp_path)
    assert after.take() == []
    assert "locked by another process" in caplog.text
    after.received(made())
    assert not after.journaling
    before.close()
    assert left_ids(tmp_path) == [(int(kept["id"]), False)]


def test_an_interaction_never_seen_answered_is_forgotten(tmp_path: Path) -> None:
    clock = Clock()
    inflight = journal(tmp_path, clock)
    inflight.received(made(0.1))
    clock.now += FORGET_SECONDS + 1
    later = made()
    inflight.received(later)
    inflight.close()
    assert left_ids(tmp_path) == [(int(later["id"]), False)]


def test_when_every_slot_is_taken_the_oldest_gives_way(tmp_path: Path) -> None:
    inflight = journal(tmp_path)
    ids = []
    for index in range(SLOTS + 1):
        data = made(5.0 - index * 0.001)
        ids.append(int(data["id"]))
        inflight.received(data)
    inflight.close()
    assert [each for each, _ in left_ids(tmp_path)] == sorted(ids[1:])


def test_an_interaction_too_large_for_a_slot_is_not_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    inflight = journal(tmp_path)
    large = made(data={"x": "y" * SLOT_BYTES})
    assert inflight.received(large) == int(large["id"])
    inflight.close()
    assert left_ids(tmp_path) == []
    assert "not kept in flight" in caplog.text


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
