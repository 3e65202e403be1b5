"""The bot's SQL is written with SQLite's `?` placeholders; PostgreSQL numbers them `$1, $2`.

A statement text is translated once and cached: the stores use a few dozen fixed texts.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Quoted strings, quoted names and comments pass through untouched; a bare `?` is numbered.
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\*.*?\*/|\?", re.DOTALL)
_INSERT_TABLE = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES|SHOW|TABLE)\b|\bRETURNING\b", re.IGNORECASE)


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """`sql` with each `?` outside quotes and comments replaced by `$1`, `$2`, ..."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _TOKEN.sub(number, sql)


@lru_cache(maxsize=1024)
def inserted_table(sql: str) -> str | None:
    """The table an INSERT without its own RETURNING writes to, else None."""
    match = _INSERT_TABLE.match(sql)
    if match is None or re.search(r"\bRETURNING\b", sql, re.IGNORECASE):
        return None
    return match.group(1).lower()


@lru_cache(maxsize=1024)
def returns_rows(sql: str) -> bool:
    """Whether the statement gives rows (read with fetch) rather than a status line."""
    return _RETURNS_ROWS.search(sql) is not None


def status_count(status: str) -> int:
    """The row count at the end of a status line such as `UPDATE 1` or `INSERT 0 2`."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1
