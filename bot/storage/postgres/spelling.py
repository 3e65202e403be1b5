"""Two spellings of SQLite's upsert that PostgreSQL reads otherwise, respelled once per text.

The stores write one SQL for both databases. Two things SQLite accepts in
`INSERT ... ON CONFLICT ... DO UPDATE SET` mean something else to PostgreSQL:

- a bare column name on the right of `=` (`games = games + excluded.games`) is the stored
  row in SQLite, and ambiguous in PostgreSQL, which wants `player_totals.games`;
- `max(a, b)` / `min(a, b)` with two arguments are SQLite's scalar functions, PostgreSQL's
  `GREATEST` / `LEAST` (its max and min are aggregates only).
"""

from __future__ import annotations

import re

_UPSERT_SET = re.compile(r"\bON\s+CONFLICT\b.*?\bDO\s+UPDATE\s+SET\b", re.IGNORECASE | re.DOTALL)
_INSERT_TABLE = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
# Quoted text is kept; an identifier not after a dot is a candidate for the table's name.
_WORD = re.compile(r"'(?:[^']|'')*'|(?<![.\w])([A-Za-z_]\w*)\b")
_ASSIGNED = re.compile(r"\s*=(?!=)")
_SET_OR_COMMA = re.compile(r"(?:\bSET|,)\s*$", re.IGNORECASE)
_TWO_ARGUMENTS = re.compile(r"\b(max|min)\(([^()]*,[^()]*)\)", re.IGNORECASE)


def upsert_table(sql: str) -> str | None:
    """The table of an `INSERT ... ON CONFLICT ... DO UPDATE`, else None."""
    match = _INSERT_TABLE.match(sql)
    if match is None or _UPSERT_SET.search(sql) is None:
        return None
    return match.group(1).lower()


def postgres_spelling(sql: str, table: str, columns: frozenset[str]) -> str:
    """An upsert of `table` (with these `columns`) as PostgreSQL reads it."""
    found = _UPSERT_SET.search(sql)
    assert found is not None
    head, tail = sql[: found.end()], sql[found.end() :]

    def qualify(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None or name.lower() not in columns:
            return match.group()
        before = tail[: match.start()]
        if _SET_OR_COMMA.search(head + before) and _ASSIGNED.match(tail, match.end()):
            return name  # the column being set is never qualified
        return f"{table}.{name}"

    return head + _scalar_extremes(_WORD.sub(qualify, tail))


def _scalar_extremes(sql: str) -> str:
    previous = None
    while previous != sql:  # innermost first: max(a, max(b, c))
        previous, sql = sql, _TWO_ARGUMENTS.sub(_extreme, sql)
    return sql


def _extreme(match: re.Match[str]) -> str:
    function = "GREATEST" if match.group(1).lower() == "max" else "LEAST"
    return f"{function}({match.group(2)})"
