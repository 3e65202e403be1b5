"""Picker's small pieces of text: dice, colours, log lines, hints and options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.picker.ai import Hint
from bot.games.picker.engine import Colour
from bot.i18n import t
from bot.render.names import Namer, safe_name
from bot.render.option_lines import shared_option_lines
from bot.render.plain_text import bold

COLOUR_MARK: dict[Colour, str] = {
    Colour.RED: "🔴",
    Colour.ORANGE: "🟠",
    Colour.YELLOW: "🟡",
    Colour.GREEN: "🟢",
    Colour.BLUE: "🔵",
    Colour.PURPLE: "🟣",
    Colour.WHITE: "⚪",
    Colour.BLACK: "⚫",
}


def die_text(colour: Colour | str, value: int) -> str:
    """A die as the message shows it: its colour mark and its number (in bold)."""
    return f"{COLOUR_MARK[Colour(colour)]}{bold(str(value))}"


def colour_name(colour: Colour | str) -> str:
    return t(f"picker.colour.{Colour(colour).value}")


def event_line(event: dict[str, Any], name_of: Namer) -> str | None:
    """One line of the log for an engine event (None for events the log leaves out)."""
    kind = event["type"]
    if kind == "picked":
        name = safe_name(name_of(event["player"]))
        return t("picker.log.picked", name=name, die=die_text(event["colour"], event["value"]))
    if kind == "picker":
        return t("picker.log.picker", name=safe_name(name_of(event["player"])))
    if kind == "all_equal":
        return t("picker.log.all_equal", value=event["value"])
    if kind == "round_over" and event.get("next_first"):
        name = safe_name(name_of(event["next_first"]))
        return t("picker.log.round_over", round=event["round"], name=name)
    if kind == "left":
        return t("picker.log.left", name=safe_name(name_of(event["player"])))
    if kind == "game_over":
        return t("picker.log.abandoned" if event.get("abandoned") else "picker.log.game_over")
    return None


def hint_text(hint: Hint, names: Mapping[str, str]) -> str:
    """Hard's choice for the player to move, and why, in plain words."""
    die = die_text(hint.colour, hint.value)
    reason = t(
        f"picker.hint.reason.{hint.reason.value}",
        colour=colour_name(hint.colour),
        times=hint.kept_before + 1,
    )
    lines = [t("picker.hint.keep", die=die, reason=reason)]
    if hint.becomes_picker and hint.reason.value != "picker":
        lines.append(t("picker.hint.also_picker"))
    others = [die_text(option.colour, option.value) for option in hint.options[1:3]]
    if others:
        lines.append(t("picker.hint.next_best", dice=", ".join(others)))
    return "\n".join(lines)


def options_lines(options: dict[str, Any], timer_seconds: int | None, hints: bool) -> list[str]:
    """The options of a Picker game, a line each (the lobby and /picker rules)."""
    first = "host" if options.get("first_player") == "host" else "random"
    return shared_option_lines(first, timer_seconds, hints)
