"""bot.connection.gateway_resume: each shard's gateway session kept in a file for the
next process, and replayed clicks too old to answer left alone."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from discord.utils import time_snowflake

from bot.connection.gateway_resume import (
    ANSWERABLE_SECONDS,
    KEPT_SECONDS,
    RECORD_BYTES,
    SavedSession,
    SessionFiles,
    replayed_too_late,
)

URL = "wss://gateway-us-east1-b.discord.gg"
GATEWAY = "wss://gateway.discord.gg/"


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_new_process_takes_the_session_the_last_one_saved(tmp_path: Path) -> None:
    clock = Clock()
    first = SessionFiles(tmp_path / "gateway", 2, clock=clock)
    first.save(1, "abc", URL, 41, GATEWAY)
    first.save(1, "abc", URL, 42, GATEWAY)
    clock.now += 3
    second = SessionFiles(tmp_path / "gateway", 2, clock=clock)
    taken = second.take(1, GATEWAY)
    assert taken == SavedSession("abc", URL, 42, GATEWAY, clock.now - 3)
    assert second.age(taken) == 3
    assert second.take(1, GATEWAY) is None, "only the shard's first connection resumes"
    assert second.take(0, GATEWAY) is None, "shard 0 saved nothing"


def test_a_session_of_another_gateway_is_not_resumed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    SessionFiles(tmp_path).save(
        None, "abc", "ws://127.0.0.1:8080/resume", 3, "ws://127.0.0.1:8080/gateway"
    )
    with caplog.at_level(logging.INFO, "bot.connection.gateway_resume"):
        assert SessionFiles(tmp_path).take(None, GATEWAY) is None
    assert "identifying afresh" in caplog.text


def test_a_session_of_another_shard_count_is_not_resumed(tmp_path: Path) -> None:
    SessionFiles(tmp_path, 1).save(None, "every-guild", URL, 7, GATEWAY)
    assert SessionFiles(tmp_path, 2).take(0, GATEWAY) is None
    assert SessionFiles(tmp_path, 1).take(None, GATEWAY) is not None


def test_a_session_older_than_discord_keeps_one_is_not_tried(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    SessionFiles(tmp_path, clock=clock).save(None, "abc", URL, 5, GATEWAY)
    clock.now += KEPT_SECONDS + 1
    with caplog.at_level(logging.INFO, "bot.connection.gateway_resume"):
        assert SessionFiles(tmp_path, clock=clock).take(None, GATEWAY) is None
    assert "identifying afresh" in caplog.text


@pytest.mark.parametrize(
    "content",
    ["{", "[]", json.dumps({"session_id": "abc"}), json.dumps({"sequence": "x"})],
)
def test_a_broken_file_is_warned_of_and_the_shard_identifies(
    tmp_path: Path, content: str, caplog: pytest.LogCaptureFixture
) -> None:
    files = SessionFiles(tmp_path)
    files.path(None).write_text(content, encoding="utf-8")
    with caplog.at_level(logging.WARNING, "bot.connection.gateway_resume"):
        assert files.take(None, GATEWAY) is None
    assert "is not a saved gateway session" in caplog.text


def test_an_unwritable_folder_is_said_once_and_changes_nothing_else(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "gateway"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    files = SessionFiles(blocked)
    with caplog.at_level(logging.WARNING, "bot.connection.gateway_resume"):
        for sequence in range(5):
            files.save(None, "abc", URL, sequence, GATEWAY)
    assert caplog.text.count("cannot keep the gateway session") == 1
    assert blocked.read_text(encoding="utf-8") == "a file where the folder should be"


def test_an_ended_session_is_forgotten_and_a_new_one_saved(tmp_path: Path) -> None:
    files = SessionFiles(tmp_path)
    files.save(None, "old", URL, 9, GATEWAY)
    files.replaying.add(None)
    files.forget(None)
    assert not files.path(None).exists()
    assert None not in files.replaying, "an invalidated resume replays nothing"
    files.save(None, "new", URL, 1, GATEWAY)
    assert json.loads(files.path(None).read_text(encoding="utf-8"))["session_id"] == "new"


def test_each_save_overwrites_one_fixed_size_record(tmp_path: Path) -> None:
    files = SessionFiles(tmp_path)
    files.save(None, "a-longer-session-id", URL + "/longer", 1, GATEWAY)
    files.save(None, "abc", URL, 2, GATEWAY)
    assert [path.name for path in tmp_path.iterdir()] == ["shard-0-of-1.json"]
    assert files.path(None).stat().st_size == RECORD_BYTES
    taken = SessionFiles(tmp_path).take(None, GATEWAY)
    assert taken is not None and (taken.session_id, taken.resume_url) == ("abc", URL)
    files.close()


def test_a_file_created_but_never_written_is_no_session(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "shard-0-of-1.json").write_bytes(b"")
    with caplog.at_level(logging.WARNING, "bot.connection.gateway_resume"):
        assert SessionFiles(tmp_path).take(None, GATEWAY) is None
    assert not caplog.text


def test_resumed_every_needs_each_shard_of_the_process(tmp_path: Path) -> None:
    files = SessionFiles(tmp_path, 4)
    files.resumed.add(1)
    assert not files.resumed_every((1, 2))
    files.resumed.add(2)
    assert files.resumed_every((1, 2))
    assert not files.resumed_every(())


def interaction_made(seconds_ago: float, now: datetime) -> dict[str, str]:
    return {"id": str(time_snowflake(now - timedelta(seconds=seconds_ago)))}


def test_a_click_replayed_past_its_answerable_time_is_too_late(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    assert not replayed_too_late(interaction_made(0.4, now), now)
    assert not replayed_too_late(interaction_made(ANSWERABLE_SECONDS - 0.1, now), now)
    with caplog.at_level(logging.INFO, "bot.connection.gateway_resume"):
        assert replayed_too_late(interaction_made(ANSWERABLE_SECONDS + 0.1, now), now)
        assert replayed_too_late(interaction_made(40, now), now)
    assert caplog.text.count("not acted on") == 2


@pytest.mark.parametrize("data", [{}, {"id": None}, {"id": "not a number"}])
def test_an_interaction_without_a_readable_id_is_served(data: dict[str, object]) -> None:
    assert not replayed_too_late(data, datetime.now(UTC))
