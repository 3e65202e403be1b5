"""The Pickomino rules engine: pure Python, no Discord, no I/O.

Import the public names from here; the submodules each hold one part of the rules.
"""

from bot.games.pickomino.engine.actions import AcceptFailure, Action, Claim, Keep, Roll, Weasel
from bot.games.pickomino.engine.claims import ClaimOption, Source
from bot.games.pickomino.engine.dice import DICE_COUNT, Face, roll_dice
from bot.games.pickomino.engine.errors import IllegalAction, InvalidState, PickominoError
from bot.games.pickomino.engine.events import (
    BratwurmGained,
    BratwurmReason,
    Event,
    Failed,
    GameOver,
    HenStolen,
    Kept,
    NinthDie,
    PlayerLeft,
    Rolled,
    SpecialistGained,
    SpecialistLeft,
    SpecialistReturned,
    Standing,
    Stole,
    Took,
    WeaselRolled,
)
from bot.games.pickomino.engine.game import Game, LegalActions
from bot.games.pickomino.engine.phases import Phase
from bot.games.pickomino.engine.rules import FirstPlayer, LowerTile, Rules
from bot.games.pickomino.engine.specialists import SETUP_TILES, Specialist
from bot.games.pickomino.engine.tiles import (
    ALL_TILES,
    BASE_LAYOUT,
    EXTRA_TILES,
    EXTRAWURM_LAYOUT,
    Layout,
    worms,
)

__all__ = [
    "ALL_TILES",
    "BASE_LAYOUT",
    "DICE_COUNT",
    "EXTRAWURM_LAYOUT",
    "EXTRA_TILES",
    "SETUP_TILES",
    "AcceptFailure",
    "Action",
    "BratwurmGained",
    "BratwurmReason",
    "Claim",
    "ClaimOption",
    "Event",
    "Face",
    "Failed",
    "FirstPlayer",
    "Game",
    "GameOver",
    "HenStolen",
    "IllegalAction",
    "InvalidState",
    "Keep",
    "Kept",
    "Layout",
    "LegalActions",
    "LowerTile",
    "NinthDie",
    "Phase",
    "PickominoError",
    "PlayerLeft",
    "Roll",
    "Rolled",
    "Rules",
    "Source",
    "Specialist",
    "SpecialistGained",
    "SpecialistLeft",
    "SpecialistReturned",
    "Standing",
    "Stole",
    "Took",
    "Weasel",
    "WeaselRolled",
    "roll_dice",
    "worms",
]
