"""The Picker rules engine: pure Python, no Discord, no I/O.

Import the public names from here; the submodules each hold one part of the rules.
"""

from bot.games.picker.engine.actions import Action, Pick, RollDice
from bot.games.picker.engine.colours import COLOURS, Colour, colours_in_play
from bot.games.picker.engine.dice import RandomSource, roll_dice
from bot.games.picker.engine.errors import IllegalMove, InvalidState, PickerError
from bot.games.picker.engine.events import (
    AllEqual,
    BecamePicker,
    Event,
    GameOver,
    Picked,
    PlayerLeft,
    Rolled,
    RoundOver,
    Standing,
    event_from_dict,
    event_to_dict,
)
from bot.games.picker.engine.game import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS_PER_PLAYER,
    Game,
    LegalActions,
    Phase,
)
from bot.games.picker.engine.scoring import ColourSet, colour_bonus, colour_sets, total_bonus
from bot.games.picker.engine.serialization import SCHEMA_VERSION, game_from_dict, game_to_dict

__all__ = [
    "COLOURS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ROUNDS_PER_PLAYER",
    "SCHEMA_VERSION",
    "Action",
    "AllEqual",
    "BecamePicker",
    "Colour",
    "ColourSet",
    "Event",
    "Game",
    "GameOver",
    "IllegalMove",
    "InvalidState",
    "LegalActions",
    "Phase",
    "Pick",
    "Picked",
    "PickerError",
    "PlayerLeft",
    "RandomSource",
    "RollDice",
    "Rolled",
    "RoundOver",
    "Standing",
    "colour_bonus",
    "colour_sets",
    "colours_in_play",
    "event_from_dict",
    "event_to_dict",
    "game_from_dict",
    "game_to_dict",
    "roll_dice",
    "total_bonus",
]
