"""Text for a page rather than a Discord message: the table (bot/plugin/table_scene.py)
words the game with the live message's own functions, inside `plain_text()`.

A message's text is markdown with the application's emojis: names escaped
(`safe_name`), numbers in bold, dice as `<:name:id>` pictures. A page sets the text as
it is (never as markup), so there the same functions write names as given, no bold and
each picture's Unicode fallback. The mode is a context variable, as the language in
force is: one task's table never changes another's message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_plain: ContextVar[bool] = ContextVar("plain_text", default=False)


@contextmanager
def plain_text() -> Iterator[None]:
    """Inside the block, text is written for a page: no markdown, Unicode pictures."""
    token = _plain.set(True)
    try:
        yield
    finally:
        _plain.reset(token)


def is_plain() -> bool:
    """Whether text is being written for a page (inside `plain_text()`)."""
    return _plain.get()


def bold(text: str) -> str:
    """`text` in bold in a message; as it is on a page."""
    return text if _plain.get() else f"**{text}**"


def unmarked(text: str) -> str:
    """A catalog's message text with its bold markers taken out, for a page. Only for
    text with no name in it: a name may hold `**` of its own."""
    return text.replace("**", "")


# Text already written for a message (a hint, a review, a refusal), made plain after the
# fact: headings, bold, subtext marks and markdown's escapes taken out, a link shown as
# its words and its address.
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
