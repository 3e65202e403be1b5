"""A costly decision of a reviewed Pickomino game, drawn (bot.games.pickomino.review):
the dice rolled and kept, the grill and the tops of the stacks, what was done and what
was best, in the language in force."""

from __future__ import annotations

from typing import Any

from bot.games.pickomino.engine import Face, worms
from bot.games.pickomino.render.text import dice_text, kept_groups
from bot.i18n import t
from bot.plugin.review import CostlyDecision
from bot.render.names import Namer


def decision_text(decision: CostlyDecision, name_of: Namer) -> str:
    """The dice (rolled, kept), the table (the grill, the tops of the stacks), then what
    was played and what was best: three lines."""
    position = decision.position
    did = choice_words(position["did"], name_of)
    best = choice_words(position["best"], name_of)
    lines = [_dice_line(position), _table_line(position, name_of)]
    lines.append(t("review.choices", did=did, best=best))
    return "\n".join(line for line in lines if line)


def tile_runs(tiles: list[int]) -> str:
    """Tiles in runs: `21 23–30 32–36` (the grill of 16 tiles fits a phone's line)."""
    runs: list[list[int]] = []
    for tile in sorted(tiles):
        if runs and tile == runs[-1][-1] + 1:
            runs[-1].append(tile)
        else:
            runs.append([tile])
    return " ".join(
        str(run[0]) if len(run) == 1 else f"{run[0]}{'–' if len(run) > 2 else ' '}{run[-1]}"
        for run in runs
    )


def _faces(symbols: str) -> list[Face]:
    return [Face.parse(symbol) for symbol in symbols]


def _dice_line(position: dict[str, Any]) -> str:
    parts = []
    if position["roll"]:
        parts.append(t("pickomino.review.roll", dice=dice_text(_faces(position["roll"]))))
    kept = _faces(position["kept"])
    if kept:
        total = sum(face.points for face in kept)
        parts.append(t("pickomino.review.kept", dice=kept_groups(kept), total=total))
    return " · ".join(parts)


def _table_line(position: dict[str, Any], name_of: Namer) -> str:
    line = t("pickomino.review.grill", tiles=tile_runs(position["grill"]))
    steals = "victim" in position["did"] or "victim" in position["best"]
    if position["tops"] and steals:  # the stacks' tops matter where a steal was open
        tops = ", ".join(f"{name_of(player)} {tile}" for player, tile in position["tops"])
        line += " · " + t("pickomino.review.tops", tops=tops)
    return line


def choice_words(choice: dict[str, Any], name_of: Namer) -> str:
    """One choice (what was done, or what was best) in words."""
    move = choice["move"]
    if move == "keep":
        dice = _dice_kept(Face.parse(choice["face"]), int(choice["count"]))
        then = choice.get("then")
        if then == "roll":
            return t("pickomino.review.choice.keep_roll", dice=dice)
        if then == "stop":
            return t("pickomino.review.choice.keep_stop", dice=dice, claim=_claim(choice, name_of))
        if then == "fail":
            return t("pickomino.review.choice.keep_fail", dice=dice)
        return t("pickomino.review.choice.keep", dice=dice)
    if move == "stop":
        return t("pickomino.review.choice.stop", claim=_claim(choice, name_of))
    if move == "weasel":
        return t("pickomino.review.choice.weasel")
    if move == "accept_failure":
        return t("pickomino.review.choice.accept")
    return t("pickomino.review.choice.roll")


def _dice_kept(face: Face, count: int) -> str:
    # The hints' words for kept dice (`the three 5s`), a key per face and plural form.
    named = "worm" if face is Face.WORM else str(int(face))
    number = t("pickomino.ai.number.words").split(",")[count]
    return t(f"pickomino.ai.hint.kept.{named}", count=count, number=number)


def _claim(choice: dict[str, Any], name_of: Namer) -> str:
    tile = int(choice["tile"])
    victim = choice.get("victim")
    if victim is not None:
        return t("pickomino.review.steal", tile=tile, victim=name_of(str(victim)))
    return t("pickomino.ai.hint.claim.grill", tile=tile, worms=worms(tile))
