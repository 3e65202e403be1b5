"""Text written for a Discord message, made plain for the table's page (which sets text,
never markup): headings, bold, subtext marks and markdown's escapes taken out, a link
shown as its words and its address."""

from __future__ import annotations

import re

_HEADING = re.compile(r"^(?:#{1,3}|-#) +")
_EMPHASIS = re.compile(r"\*\*|__")
_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+)\)")
_ESCAPED = re.compile(r"\\([\\*_~`|>#\-\[\]()])")


def plain_line(line: str) -> str:
    """One line of markdown as the words it shows."""
    line = _HEADING.sub("", line.strip())
    line = _LINK.sub(r"\1 (\2)", line)
    line = _EMPHASIS.sub("", line)
    return _ESCAPED.sub(r"\1", line)


def plain_lines(text: str) -> list[str]:
    """Each line of a markdown text as plain words; blank ones left out."""
    lines = (plain_line(line) for line in text.splitlines())
    return [line for line in lines if line]
