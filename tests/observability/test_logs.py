"""LOG_FORMAT=json: each record is one line of JSON with the fixed fields and the extras."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path

import pytest

from bot.__main__ import setup_logging
from bot.config import Settings
from bot.observability.logs import JsonFormatter


class Colour(Enum):
    RED = 1


@pytest.fixture
def captured() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("tests.observability.json")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    yield logger, stream
    logger.removeHandler(handler)


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_line_has_time_level_logger_and_message(captured) -> None:
    logger, stream = captured
    before = datetime.now(UTC).replace(microsecond=0)
    logger.info("game %d started in %s", 12, "#général")
    [entry] = lines(stream)
    assert set(entry) == {"time", "level", "logger", "message"}
    assert entry["level"] == "INFO"
    assert entry["logger"] == "tests.observability.json"
    assert entry["message"] == "game 12 started in #général"
    when = datetime.fromisoformat(str(entry["time"]))
    assert when.utcoffset() is not None and when.utcoffset().total_seconds() == 0
    assert before <= when <= datetime.now(UTC)


def test_extras_are_fields_and_any_value_is_written(captured) -> None:
    logger, stream = captured
    logger.warning(
        "slow commit", extra={"game_id": 7, "seconds": 0.5, "colour": Colour.RED, "path": Path("x")}
    )
    [entry] = lines(stream)
    assert entry["game_id"] == 7 and entry["seconds"] == 0.5
    assert entry["colour"] == "Colour.RED" and entry["path"] == "x"
    assert entry["level"] == "WARNING"


def test_an_exception_is_one_line_holding_the_traceback(captured) -> None:
    logger, stream = captured
    try:
        raise ValueError("bad tile")
    except ValueError:
        logger.exception("click failed", extra={"custom_id": "pk:roll"})
    assert len(stream.getvalue().splitlines()) == 1
    [entry] = lines(stream)
    assert entry["level"] == "ERROR" and entry["message"] == "click failed"
    assert entry["custom_id"] == "pk:roll"
    exception = str(entry["exception"])
    assert exception.startswith("Traceback (most recent call last):")
    assert exception.endswith("ValueError: bad tile")


def test_an_extra_cannot_replace_a_fixed_field(captured) -> None:
    logger, stream = captured
    logger.info("real", extra={"level": "fake", "time": "never"})
    [entry] = lines(stream)
    assert entry["level"] == "INFO" and entry["time"] != "never"


def test_log_format_json_puts_the_root_logger_on_json() -> None:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        setup_logging(Settings(log_format="json", log_level="WARNING"))  # type: ignore[arg-type]
        added = [h for h in root.handlers if h not in handlers]
        assert len(added) == 1 and isinstance(added[0].formatter, JsonFormatter)
        assert root.level == logging.WARNING
    finally:
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
