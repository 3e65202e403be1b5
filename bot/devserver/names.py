"""Which names a person may sit down with: the display names Discord allows.

Discord's rules for display names and nicknames (the API documentation, "Usernames and
Nicknames", and docs.discord.food's fuller list for display names): most Unicode
characters, emoji and punctuation included, with "some zero-width and non-rendering
characters" left out; 1 to 32 characters; trimmed of leading, trailing and repeated
inner whitespace; not "everyone", "here" or "system message", and without "discord".

Characters are counted as Discord's API counts them: Unicode code points (a Python
`len`), so "🦄 Zoë ✨" is 7 (8 with a decomposed ë) and a family emoji joined by
zero-width joiners counts each of its parts. The page's counter counts the same way.
"""

from __future__ import annotations

import unicodedata

MAX_LENGTH = 32
RESERVED = frozenset({"everyone", "here", "system message"})
# Zero-width joiners and non-joiners make emoji sequences and Persian or Indic words;
# tag characters make the flags of England, Scotland and Wales. Other format characters
# (bidirectional controls, zero-width spaces, the byte-order mark) draw nothing.
_FORMAT_KEPT = frozenset({"\u200c", "\u200d"})
_TAGS = range(0xE0020, 0xE0080)
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_NOT_SEEN_ALONE = frozenset({"Mn", "Me", "Cf", "Zs"})


class NameRefused(ValueError):
    """Why a name cannot be used: `key` (play.refusal.<key>) and its parameters."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def display_name(raw: object) -> str:
    """The name as Discord would keep it (whitespace trimmed and collapsed), or
    NameRefused saying why Discord would not take it."""
    if not isinstance(raw, str):
        raise NameRefused("name_empty")
    name = " ".join(raw.split())
    if not any(unicodedata.category(c) not in _NOT_SEEN_ALONE for c in name):
        raise NameRefused("name_empty")
    if len(name) > MAX_LENGTH:
        raise NameRefused("name_long", count=len(name), limit=MAX_LENGTH)
    for char in name:
        if _refused_char(char):
            raise NameRefused("name_character", code=f"U+{ord(char):04X}")
    folded = name.casefold()
    if folded in RESERVED:
        raise NameRefused("name_reserved", name=name)
    if "discord" in folded:
        raise NameRefused("name_discord")
    return name


def _refused_char(char: str) -> bool:
    if char in _FORMAT_KEPT or ord(char) in _TAGS:
        return False
    return unicodedata.category(char) in _INVISIBLE
