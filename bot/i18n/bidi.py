"""Names written right to left (Arabic, Hebrew...) inside our left-to-right sentences.

A name is dropped into a sentence as it is; the Unicode bidirectional algorithm then
lets a right-to-left name pull the numbers and punctuation next to it into its own
direction ("0 · مرحبا 🪱" came out with the 0 on the wrong side). Wrapped in FIRST
STRONG ISOLATE ... POP DIRECTIONAL ISOLATE, the name is laid out on its own and the
sentence around it keeps its order. A name's own direction controls are dropped first:
an override or an unmatched isolate in a display name could flip the rest of the line.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

FSI = "\u2068"  # FIRST STRONG ISOLATE
PDI = "\u2069"  # POP DIRECTIONAL ISOLATE
# Embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI).
_DIRECTION_CONTROLS = dict.fromkeys(
    map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)
_RIGHT_TO_LEFT = frozenset({"R", "AL"})


@lru_cache(maxsize=4096)
def isolate(name: str) -> str:
    """`name` safe to drop into a sentence: isolated (FSI ... PDI) when it holds any
    right-to-left letter, as it is otherwise; its own direction controls removed."""
    cleaned = name.translate(_DIRECTION_CONTROLS)
    return f"{FSI}{cleaned}{PDI}" if is_right_to_left(cleaned) else cleaned


def is_right_to_left(text: str) -> bool:
    """Whether `text` holds a right-to-left letter (drawn right to left in a picture)."""
    return any(unicodedata.bidirectional(char) in _RIGHT_TO_LEFT for char in text)
