"""What the live message tells of the turns just played: the bust everyone must see, and
the log lines (with each turn's last roll, people's too)."""

from __future__ import annotations

from typing import Any

from bot.games.pickomino.engine import Face
from bot.games.pickomino.render.text import dice_text, event_line, failure_detail, roll_line
from bot.i18n import t
from bot.render.names import Namer, safe_name

AFTER_A_BUST = frozenset({"left", "game_over"})  # what may follow a bust before the next roll
TURN_ENDS = frozenset({"took", "stole", "failed", "left", "game_over"})


def last_bust(log: list[dict[str, Any]], name_of: Namer) -> str | None:
    """The latest failed turn, shown until the next roll: who, the failing roll, why, and
    what happened to the tiles (`💥 Bob rolled 2 3 5: all kept already. 22 back ...`)."""
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        if event["type"] in AFTER_A_BUST:
            continue
        if event["type"] != "failed":
            return None  # someone moved since: the bust is told in the log now
        name = safe_name(name_of(event["player"]))
        roll = _failing_roll(log[:index], event["player"])
        reason = t(f"pickomino.bust.reason.{event['reason']}")
        head = (
            t("pickomino.bust.rolled", name=name, dice=dice_text(roll), reason=reason)
            if roll
            else t("pickomino.bust.plain", name=name, reason=reason)
        )
        detail = failure_detail(event)
        return f"{head} {detail}" if detail else head
    return None


def _failing_roll(before: list[dict[str, Any]], player: str) -> list[Face]:
    """The roll that ended the turn (the player's last one, if it was their last move)."""
    if before and before[-1]["type"] == "rolled" and before[-1]["player"] == player:
        return [Face.parse(face) for face in before[-1]["dice"]]
    return []


def log_lines(
    log: list[dict[str, Any]], name_of: Namer, is_bot: Any, last: int | None = None
) -> list[str]:
    """The log as lines: every event but rolls, except a computer player's rolls and the
    last roll of each finished turn (so a person's failing roll stays readable). With
    `last`, only the last that many lines (a line depends on its event and the later
    ones only, so the log is read from its end, and no further than needed)."""
    lines: list[str] = []
    for index in range(len(log) - 1, -1, -1):
        if last is not None and len(lines) >= last:
            break
        event = log[index]
        if event["type"] == "rolled":
            if is_bot(event["player"]) or _last_roll_of_turn(log, index):
                lines.append(roll_line(event, name_of))
            continue
        line = event_line(event, name_of)
        if line:
            lines.append(line)
    lines.reverse()
    return lines


def _last_roll_of_turn(log: list[dict[str, Any]], index: int) -> bool:
    for event in log[index + 1 :]:
        if event["type"] == "rolled":
            return False
        if event["type"] in TURN_ENDS:
            return True
    return False  # the turn goes on: its roll is at the top of the message
