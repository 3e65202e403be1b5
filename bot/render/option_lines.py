"""The option lines every game shows in its lobby and rules: who starts, the turn
timer, hints."""

from __future__ import annotations

from bot.i18n import t


def timer_text(seconds: int | None) -> str:
    if seconds is None:
        return t("options.timer.off")
    return t("options.timer.on", minutes=duration_text(seconds))


def duration_text(seconds: int) -> str:
    if seconds % 60 == 0:
        return t("options.minutes", count=seconds // 60)
    return t("options.seconds", count=seconds)


def shared_option_lines(first_player: str, timer_seconds: int | None, hints: bool) -> list[str]:
    """Who starts (`random` or `host`), the timer and hints, a line each."""
    return [
        t(f"options.first.{first_player}"),
        timer_text(timer_seconds),
        t("options.hints.on" if hints else "options.hints.off"),
    ]
