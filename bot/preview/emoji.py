"""Emoji as Discord shows them: Unicode emoji as text in a colour font, custom emoji
(`<:name:id>`, `<a:name:id>`) as an image or, without one, a box of the same size."""

from __future__ import annotations

import re
from collections.abc import Mapping
from html import escape

# Code points shown as emoji without a variation selector (default emoji presentation);
# other symbols (©, ↔, ☺, ...) are text unless followed by U+FE0F, as on Discord.
_DEFAULT_EMOJI_BMP = (
    "\u231a\u231b\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615\u2648-\u2653\u267f"
    "\u2693\u26a1\u26aa\u26ab\u26bd\u26be\u26c4\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5"
    "\u26fa\u26fd\u2705\u270a\u270b\u2728\u274c\u274e\u2753-\u2755\u2757\u2795-\u2797"
    "\u27b0\u27bf\u2b1b\u2b1c\u2b50\u2b55"
)
_ONE = (
    r"(?:[\U0001F1E6-\U0001F1FF]{2}"  # a flag: two regional indicators
    r"|[0-9#*]\uFE0F?\u20E3"  # a keycap: 1️⃣
    r"|[\U0001F000-\U0001FAFF" + _DEFAULT_EMOJI_BMP + r"]\uFE0F?"
    r"|[\u00a9\u00ae\u203c-\u3299]\uFE0F)"
    r"[\U0001F3FB-\U0001F3FF]?[\U000E0020-\U000E007F]*"  # skin tone, subdivision tags
)
UNICODE_EMOJI = re.compile(_ONE + r"(?:\u200D" + _ONE + r")*")
CUSTOM_EMOJI = re.compile(r"<(a?):(\w{1,32}):(\d{1,25})>")
JUMBO_MAX = 30  # a message of at most this many emoji and nothing else shows them large


def could_start_emoji(char: str) -> bool:
    """A cheap test before trying the emoji pattern at a position."""
    return char.isdigit() or char in "#*" or ord(char) >= 0xA9


def is_jumbo(text: str) -> bool:
    """Whether Discord would show `text` as large emoji: only emoji and spaces, 1 to 30."""
    rest = text.strip()
    count = 0
    while rest:
        match = CUSTOM_EMOJI.match(rest) or UNICODE_EMOJI.match(rest)
        if match is None:
            return False
        count += 1
        rest = rest[match.end() :].lstrip()
    return 0 < count <= JUMBO_MAX


def unicode_emoji_html(emoji: str) -> str:
    return f'<span class="dc-emoji-text">{escape(emoji)}</span>'


def custom_emoji_html(name: str, emoji_images: Mapping[str, str]) -> str:
    """The emoji's image from `emoji_images` (by name), else a box of the emoji's size."""
    label = escape(f":{name}:")
    source = emoji_images.get(name)
    if source is None:
        return f'<span class="dc-emoji dc-emoji-missing" title="{label}"></span>'
    return f'<img class="dc-emoji" src="{escape(source)}" alt="{label}" title="{label}">'


def emoji_html(emoji: dict[str, object], emoji_images: Mapping[str, str]) -> str:
    """A component's `emoji` object ({"name": ...} or {"name", "id", "animated"})."""
    name = str(emoji.get("name") or "")
    if emoji.get("id"):
        return custom_emoji_html(name, emoji_images)
    return unicode_emoji_html(name)
