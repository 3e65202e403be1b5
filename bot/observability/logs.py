"""JSON log lines (LOG_FORMAT=json): one object per line, for a log shipper to parse.

Each line has ``time`` (ISO 8601, UTC), ``level``, ``logger`` and ``message``, then
``exception`` (the formatted traceback) and ``stack`` when the record carries them, and
every field given with ``log.info(..., extra={"game_id": 12})``.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

__all__ = ["JsonFormatter"]

# What every LogRecord has, so whatever else a record carries came from ``extra=``.
# Read from a real record because the set grows with Python versions (taskName in 3.12).
_RECORD_FIELDS = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """Formats a record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            key: value for key, value in record.__dict__.items() if key not in _RECORD_FIELDS
        }
        # The fixed fields come last so an extra named like one of them cannot hide it.
        entry.update(
            time=datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            level=record.levelname,
            logger=record.name,
            message=record.getMessage(),
        )
        if record.exc_info:
            # Cached on the record, as logging.Formatter does, for the other handlers.
            record.exc_text = record.exc_text or self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        # default=str: an extra that JSON cannot hold (an enum, a Path) is still logged.
        return json.dumps(entry, default=str, ensure_ascii=False)
