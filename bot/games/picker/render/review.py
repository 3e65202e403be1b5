"""A costly keep of a reviewed Picker game, drawn (bot.games.picker.review): the dice on
the table (those kept already struck through), the colours the player had kept, what
was kept and what was best, in the language in force."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.games.picker.engine import COLOURS, Colour
from bot.games.picker.words import COLOUR_MARK, die_text
from bot.i18n import t
from bot.plugin.review import CostlyDecision
from bot.render.names import Namer


def decision_text(decision: CostlyDecision, name_of: Namer) -> str:
    position = decision.position
    taken = set(position["taken"])
    dice = " ".join(
        f"~~{die_text(colour, value)}~~" if str(colour) in taken else die_text(colour, value)
        for colour, value in zip(COLOURS, position["dice"], strict=False)
    )
    lines = [t("picker.review.dice", dice=dice)]
    kept = Counter(position["kept"])
    if kept:
        sets = " ".join(
            f"{COLOUR_MARK[Colour(colour)]}×{count}" for colour, count in sorted(kept.items())
        )
        lines[0] += " · " + t("picker.review.kept", sets=sets)
    did, best = choice_words(position, position["did"]), choice_words(position, position["best"])
    lines.append(t("review.choices", did=did, best=best))
    return "\n".join(lines)


def choice_words(position: dict[str, Any], colour: str) -> str:
    """Keeping the die of `colour`, in words."""
    value = position["dice"][[str(c) for c in COLOURS].index(colour)]
    return t("picker.review.keep", die=die_text(colour, value))
