"""The /<game> start options every game shares: who starts, the turn timer and the
language of the game's message."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from discord import app_commands

from bot.i18n import ENDONYMS, LOCALES
from bot.ui.translator import command_text

DEFAULT_TIMER_SECONDS = 300
TIMER_OFF = 0

FIRST_PLAYER_CHOICES = [
    app_commands.Choice(name=command_text("command.choice.first.random"), value="random"),
    app_commands.Choice(name=command_text("command.choice.first.host"), value="host"),
]
TIMER_CHOICES = [
    app_commands.Choice(name=command_text("command.choice.timer.off"), value=TIMER_OFF),
    *(
        app_commands.Choice(
            name=command_text("command.choice.timer.minutes", count=minutes), value=minutes * 60
        )
        for minutes in (1, 2, 3, 5, 10, 15, 30)
    ),
]
# Each language by its own name, the same for everyone: no translation.
LANGUAGE_CHOICES = [app_commands.Choice(name=ENDONYMS[code], value=code) for code in LOCALES]
# The options' names in every language (app_commands.rename), keyed by parameter.
SHARED_OPTION_NAMES = {
    "first_player": command_text("command.option.first_player"),
    "turn_timer": command_text("command.option.turn_timer"),
    "hints": command_text("command.option.hints"),
    "language": command_text("command.option.language"),
}
SHARED_OPTION_DESCRIPTIONS = {
    "first_player": command_text("command.start.first_player"),
    "turn_timer": command_text("command.start.turn_timer"),
    "hints": command_text("command.start.hints"),
    "language": command_text("command.start.language"),
}


Decorated = TypeVar("Decorated", bound=Callable[..., object])


def shared_start_options(start: Decorated) -> Decorated:
    """Name, describe and give choices to the options every game's `/<game> start` has:
    `first_player`, `turn_timer`, `hints` and `language` parameters (below the
    `@app_commands.command` decorator; a game's own options add their own)."""
    start = app_commands.rename(**SHARED_OPTION_NAMES)(start)
    start = app_commands.describe(**SHARED_OPTION_DESCRIPTIONS)(start)
    # Text and number choices in two calls: one call takes choices of one type.
    start = app_commands.choices(first_player=FIRST_PLAYER_CHOICES, language=LANGUAGE_CHOICES)(
        start
    )
    return app_commands.choices(turn_timer=TIMER_CHOICES)(start)


def timer_from_choice(seconds: int | None) -> int | None:
    """The turn timer in seconds, or None when it is off."""
    if seconds is None:
        return DEFAULT_TIMER_SECONDS
    return None if seconds == TIMER_OFF else seconds
