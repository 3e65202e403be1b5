"""The options of /pickomino start: rule options (RULES.md), first player, turn timer."""

from __future__ import annotations

from discord import app_commands

from bot.games.pickomino.engine import FirstPlayer, LowerTile, Rules
from bot.i18n import t

DEFAULT_TIMER_SECONDS = 300
TIMER_OFF = 0

LOWER_TILE_CHOICES = [
    app_commands.Choice(name=t("command.choice.lower_tile.highest"), value="highest"),
    app_commands.Choice(name=t("command.choice.lower_tile.any"), value="any"),
]
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


def rules_from_choices(lower_tile: str | None, flip: bool | None, first: str | None) -> Rules:
    return Rules(
        flip_on_empty_failure=bool(flip),
        lower_tile=LowerTile(lower_tile or LowerTile.HIGHEST),
        first_player=FirstPlayer(first or FirstPlayer.RANDOM),
    )


def timer_from_choice(seconds: int | None) -> int | None:
    """The turn timer in seconds, or None when it is off."""
    if seconds is None:
        return DEFAULT_TIMER_SECONDS
    return None if seconds == TIMER_OFF else seconds
