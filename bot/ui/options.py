"""The /<game> start options every game shares: who starts, and the turn timer."""

from __future__ import annotations

from discord import app_commands

from bot.i18n import t

DEFAULT_TIMER_SECONDS = 300
TIMER_OFF = 0

FIRST_PLAYER_CHOICES = [
    app_commands.Choice(name=t("command.choice.first.random"), value="random"),
    app_commands.Choice(name=t("command.choice.first.host"), value="host"),
]
TIMER_CHOICES = [
    app_commands.Choice(name=t("command.choice.timer.off"), value=TIMER_OFF),
    *(
        app_commands.Choice(
            name=t("command.choice.timer.minutes", count=minutes), value=minutes * 60
        )
        for minutes in (1, 2, 3, 5, 10, 15, 30)
    ),
]


def timer_from_choice(seconds: int | None) -> int | None:
    """The turn timer in seconds, or None when it is off."""
    if seconds is None:
        return DEFAULT_TIMER_SECONDS
    return None if seconds == TIMER_OFF else seconds
