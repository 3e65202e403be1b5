"""The Pickomino rules engine: pure Python, no Discord, no I/O.

Import the public names from here; the submodules each hold one part of the rules.
"""

from bot.game.pickomino.actions import Action, Claim, Keep, Roll
from bot.game.pickomino.claims import ClaimOption, Source
from bot.game.pickomino.dice import DICE_COUNT, Face, roll_dice
from bot.game.pickomino.errors import IllegalAction, InvalidState, PickominoError
from bot.game.pickomino.events import (
    Event,
    Failed,
    GameOver,
    Kept,
    PlayerLeft,
    Rolled,
    Standing,
    Stole,
    Took,
)
from bot.game.pickomino.game import Game, Phase
from bot.game.pickomino.rules import FirstPlayer, LowerTile, Rules
from bot.game.pickomino.tiles import ALL_TILES, worms

__all__ = [
    "ALL_TILES",
    "DICE_COUNT",
    "Action",
    "Claim",
    "ClaimOption",
    "Event",
    "Face",
    "Failed",
    "FirstPlayer",
    "Game",
    "GameOver",
    "IllegalAction",
    "InvalidState",
    "Keep",
    "Kept",
    "LowerTile",
    "Phase",
    "PickominoError",
    "PlayerLeft",
    "Roll",
    "Rolled",
    "Rules",
    "Source",
    "Standing",
    "Stole",
    "Took",
    "roll_dice",
    "worms",
]
