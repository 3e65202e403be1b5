"""The bot's SQL is written with SQLite's placeholders, `?` or `:name`; PostgreSQL numbers
them `$1, $2`.

A statement text is translated once and cached: the stores use a few dozen fixed texts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# Quoted strings, quoted names, comments and `::` casts pass through untouched; a bare `?`
# or `:name` is a placeholder.
_TOKEN = re.compile(
    r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\*.*?\*/|::|\?|:(?P<name>[A-Za-z_]\w*)",
    re.DOTALL,
)
_INSERT_TABLE = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES|SHOW|TABLE)\b|\bRETURNING\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Statement:
    """A statement in PostgreSQL's spelling, and the names of its `:name` parameters in
    the order of their numbers (empty for `?` parameters)."""

    text: str
    names: tuple[str, ...]

    def arguments(self, parameters: Sequence[Any] | Mapping[str, Any]) -> tuple[Any, ...]:
        """The values for `$1, $2, ...` from positional or named parameters."""
        if isinstance(parameters, Mapping):
            return tuple(parameters[name] for name in self.names)
        if self.names:
            raise TypeError("a statement with :name placeholders needs a mapping of values")
        return tuple(parameters)


@lru_cache(maxsize=1024)
def translate(sql: str) -> Statement:
    """`sql` with each `?` outside quotes and comments numbered `$1`, `$2`, ..., and each
    `:name` numbered once per name."""
    count = 0
    names: dict[str, int] = {}

    def number(match: re.Match[str]) -> str:
        nonlocal count
        name = match.group("name")
        if name is not None:
            if name not in names:
                names[name] = len(names) + 1
            return f"${names[name]}"
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    text = _TOKEN.sub(number, sql)
    if count and names:
        raise ValueError("a statement mixes ? and :name placeholders")
    return Statement(text, tuple(names))


def numbered(sql: str) -> str:
    """`sql` in PostgreSQL's spelling (see `translate`)."""
    return translate(sql).text


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
