"""A "what now" line as data: a catalog key and its arguments, before any wording.

Each game decides its player's prompt from its state alone (`bot/games/<game>/render/
what_now.py`, no discord import) and words it where it draws the message, so the same
decision can be worded otherwise (a coaching line in a practice game) without deciding
it twice. Arguments are raw values (counts, tiles, faces, player ids, claim options);
the game's wording turns them into text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the player to move may do now, and why: `key` names it in the catalogs."""

    key: str
    args: dict[str, Any] = field(default_factory=dict)
