"""Pickomino's small pieces of text: dice, tiles, log lines, options."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.games.pickomino.engine import Face, Rules, worms
from bot.games.pickomino.engine.specialists import Specialist
from bot.games.pickomino.pictures import die_emoji_name, tile_emoji_name
from bot.i18n import t
from bot.render.emoji import show
from bot.render.names import Namer, safe_name
from bot.render.option_lines import shared_option_lines

FACE_EMOJI: dict[Face, str] = {
    Face.ONE: "1️⃣",
    Face.TWO: "2️⃣",
    Face.THREE: "3️⃣",
    Face.FOUR: "4️⃣",
    Face.FIVE: "5️⃣",
    Face.WORM: "🪱",
}
WORM = "🪱"
TURNED = "⬛"


def die(face: Face) -> str:
    """One die: its picture once the application has it, else the keycap emoji."""
    name = die_emoji_name("worm" if face is Face.WORM else int(face))
    return show(name, FACE_EMOJI[face])


def tile_picture(tile: int) -> str | None:
    """A tile as its picture, or None while the application has no pictures."""
    shown = show(tile_emoji_name(tile), "")
    return shown or None


def tile_text(tile: int) -> str:
    """A tile with its worms: its picture, else `27 🪱🪱`."""
    return tile_picture(tile) or f"{tile} {WORM * worms(tile)}"


def score_text(score: int, bratwurms: int) -> str:
    """A player's score: `12 🪱`; with Bratwurms the worms and the Bratwurms apart and
    their sum in words (`2 🪱 + 1 🌭 = 3 points`), never a Bratwurm counted as a worm."""
    if not bratwurms:
        return t("pickomino.player.worms", count=score)
    return t("pickomino.player.score", count=score, worms=score - bratwurms, bratwurms=bratwurms)


def dice_text(dice: tuple[Face, ...] | list[Face]) -> str:
    return " ".join(die(face) for face in dice)


def kept_groups(kept: list[Face]) -> str:
    counts = Counter(kept)
    return " ".join(f"{die(face)}×{counts[face]}" for face in sorted(counts))


def options_lines(
    options: dict[str, Any], timer_seconds: int | None, hints: bool = True
) -> list[str]:
    """The rule options, the timer and hints, one line each, for the lobby and /pickomino
    rules. Extrawurm is one short line: what it adds, and where each specialist is
    explained (`extrawurm_lines`, in /pickomino rules), so a lobby fits a phone screen."""
    rules = Rules.from_dict(options)
    # The group's name is not translated; its subcommand's is, as the reader's client shows it.
    explained = f"/pickomino {t('command.name.rules')}"
    expansion = [t("pickomino.options.extrawurm.short", rules=explained)] if rules.extrawurm else []
    return [
        *expansion,
        t(f"pickomino.options.lower_tile.{rules.lower_tile.value}"),
        t(
            "pickomino.options.flip.yes"
            if rules.flip_on_empty_failure
            else "pickomino.options.flip.no"
        ),
        *shared_option_lines(rules.first_player.value, timer_seconds, hints),
    ]


def extrawurm_lines() -> list[str]:
    """The Extrawurm expansion in full, for /pickomino rules: what it adds, then each
    specialist, a line each: what holding one does."""
    specialists = [t(f"pickomino.options.extrawurm.{each.value}") for each in Specialist]
    return [t("pickomino.options.extrawurm.on"), *specialists]


def roll_line(event: dict[str, Any], name_of: Namer) -> str:
    """A roll as a log line (shown for computer players, whose every step is logged)."""
    dice = dice_text(tuple(Face.parse(face) for face in event["dice"]))
    return t("pickomino.log.rolled", name=safe_name(name_of(event["player"])), dice=dice)


def event_line(event: dict[str, Any], name_of: Namer) -> str | None:
    """One log line for a stored event, or None for events the log leaves out (rolls)."""
    kind = event["type"]
    name = safe_name(name_of(event.get("player") or ""))  # None: a specialist moving alone
    if kind == "kept":
        face = die(Face.parse(event["face"]))
        return t(
            "pickomino.log.kept", name=name, count=event["count"], face=face, total=event["total"]
        )
    if kind == "took":
        return t("pickomino.log.took", name=name, tile=event["tile"])
    if kind == "stole":
        victim = safe_name(name_of(event["victim"]))
        return t("pickomino.log.stole", name=name, tile=event["tile"], victim=victim)
    if kind == "hen_stolen":  # the Hen, not the tile: the victim keeps their stack
        victim = safe_name(name_of(event["victim"]))
        return t("pickomino.log.hen_stolen", name=name, victim=victim)
    if kind == "failed":
        return _failure_line(event, name)
    if kind == "left":
        if not event["returned"]:
            return t("pickomino.log.left", name=name)
        tiles = ", ".join(str(tile) for tile in event["returned"])
        return t("pickomino.log.left.returned", name=name, tiles=tiles)
    if kind == "game_over":
        return t(
            "pickomino.log.game_abandoned" if event.get("abandoned") else "pickomino.log.game_over"
        )
    return None


def _failure_line(event: dict[str, Any], name: str) -> str:
    head_key = (
        "pickomino.log.failed.timeout" if event["reason"] == "timeout" else "pickomino.log.failed"
    )
    head = t(head_key, name=name)
    detail = failure_detail(event)
    return f"{head}: {detail}" if detail else head


def failure_detail(event: dict[str, Any]) -> str:
    """What a failed turn did to the tiles (`22 back to the grill, 36 turned over`)."""
    parts = []
    if event["returned"] is not None:
        parts.append(t("pickomino.log.failed.returned", tile=event["returned"]))
    if event["turned"] is not None:
        parts.append(t("pickomino.log.failed.turned", tile=event["turned"]))
    return ", ".join(parts)
