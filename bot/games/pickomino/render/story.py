"""What the live message tells of the turns just played: the latest bust or steal, until
the player it hit rolls again, and the log lines (with each turn's last roll, people's
too)."""

from __future__ import annotations

from typing import Any

from bot.games.pickomino.engine import Failed, HenStolen
from bot.games.pickomino.engine.setback import Setback
from bot.games.pickomino.render.text import event_line, roll_line
from bot.i18n import t
from bot.render.names import Namer, safe_name

TURN_ENDS = frozenset({"took", "stole", "failed", "left", "game_over"})


def setback_line(setback: Setback | None, name_of: Namer, hen_mark: str) -> str | None:
    """The latest bust or steal, one short line, shown until the player it hit rolls on
    their next turn (`💥 Bob busted: all kept already`, `⚔️ Sprout stole 25 from Bob`);
    the log tells the rest (the failing roll, the tiles returned and turned)."""
    if setback is None:
        return None
    event = setback.event
    name = safe_name(name_of(event.player))
    if isinstance(event, Failed):
        reason = t(f"pickomino.bust.reason.{event.reason.value}")
        return t("pickomino.headline.bust", name=name, reason=reason)
    victim = safe_name(name_of(event.victim))
    if isinstance(event, HenStolen):
        return t("pickomino.headline.hen_stolen", name=name, victim=victim, mark=hen_mark)
    return t("pickomino.headline.stole", name=name, victim=victim, tile=event.tile)


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
