"""The Pickomino rules engine: pure Python, no Discord, no I/O.

Import the public names from here; the submodules each hold one part of the rules.
"""

from bot.games.pickomino.engine.actions import Action, Claim, Keep, Roll
from bot.games.pickomino.engine.claims import ClaimOption, Source
from bot.games.pickomino.engine.dice import DICE_COUNT, Face, roll_dice
from bot.games.pickomino.engine.errors import IllegalAction, InvalidState, PickominoError
from bot.games.pickomino.engine.events import (
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
from bot.games.pickomino.engine.game import Game, Phase
from bot.games.pickomino.engine.rules import FirstPlayer, LowerTile, Rules
from bot.games.pickomino.engine.tiles import ALL_TILES, worms

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
