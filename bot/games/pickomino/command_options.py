"""Pickomino's own options of /pickomino start: the rule options of RULES.md (who
starts and the turn timer are every game's: bot/ui/options.py)."""

from __future__ import annotations

from discord import app_commands

from bot.games.pickomino.engine import FirstPlayer, LowerTile, Rules
from bot.ui.translator import command_text

LOWER_TILE_CHOICES = [
    app_commands.Choice(
        name=command_text("pickomino.command.choice.lower_tile.highest"), value="highest"
    ),
    app_commands.Choice(name=command_text("pickomino.command.choice.lower_tile.any"), value="any"),
]
OPTION_NAMES = {
    "lower_tile": command_text("pickomino.command.option.lower_tile"),
    "flip_on_empty_failure": command_text("pickomino.command.option.flip_on_empty_failure"),
    "extrawurm": command_text("pickomino.command.option.extrawurm"),
}
OPTION_DESCRIPTIONS = {
    "lower_tile": command_text("pickomino.command.start.lower_tile"),
    "flip_on_empty_failure": command_text("pickomino.command.start.flip"),
    "extrawurm": command_text("pickomino.command.start.extrawurm"),
}


def rules_from_choices(
    lower_tile: str | None, flip: bool | None, first: str | None, extrawurm: bool | None = None
) -> Rules:
    return Rules(
        flip_on_empty_failure=bool(flip),
        lower_tile=LowerTile(lower_tile or LowerTile.HIGHEST),
        first_player=FirstPlayer(first or FirstPlayer.RANDOM),
        extrawurm=bool(extrawurm),
    )
