"""Computer players: three levels behind one interface, pure and deterministic.

`decide(game, level)` returns the move of the player to move, always legal: keep a
face, claim a tile, or `RollDice` (the caller rolls with its own rng and stores the
roll before showing it, exactly as for a person); with Extrawurm also `WeaselDice`
(the same, with `game.weasel_with(rng)`) or `AcceptFailure`. `choose_action` does the roll too,
for callers that want an engine action straight away.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from bot.games.pickomino.ai.extrawurm import evaluate_extrawurm
from bot.games.pickomino.ai.policy import ActionValue, Move, evaluate_game
from bot.games.pickomino.ai.position import Objective
from bot.games.pickomino.engine.actions import AcceptFailure, Action, Claim, Keep, Roll, Weasel
from bot.games.pickomino.engine.claims import best_claim
from bot.games.pickomino.engine.dice import POINTS, Face, RandomSource, roll_dice
from bot.games.pickomino.engine.events import Event
from bot.games.pickomino.engine.game import Game, Phase
from bot.i18n import t

BOT_NAMES = ("Pip", "Nibbles", "Sprout", "Wiggles", "Crumb", "Noodle", "Squiggle")


class Level(StrEnum):
    EASY = "easy"  # keeps the face worth most, stops at the first tile it can take
    NORMAL = "normal"  # plays each turn exactly for the most worms of its own
    HARD = "hard"  # plays each turn exactly for the best chance to win (outlook.py),
    # with two players after the opponent's best answer (position.py), with more
    # blended with the finishing order


@dataclass(frozen=True, slots=True)
class RollDice:
    """Roll the dice left: the caller rolls them (`game.roll_with(rng)`)."""


@dataclass(frozen=True, slots=True)
class WeaselDice:
    """Extrawurm: roll the dice on the table again with the Weasel (`game.weasel_with`)."""


Decision = Keep | Claim | RollDice | WeaselDice | AcceptFailure

OBJECTIVES = {Level.NORMAL: Objective.WORMS, Level.HARD: Objective.WIN}


def decide(game: Game, level: Level) -> Decision:
    """The move of the player to move at `level`; raises ValueError if the game is over."""
    if game.phase is Phase.OVER:
        raise ValueError("the game is over")
    if level is not Level.EASY:
        return _solved(game, OBJECTIVES[level])
    if game.phase is Phase.NO_NEW_FACE:
        return WeaselDice()  # a second roll can only do better than a sure failure
    if game.phase is Phase.KEEP:
        return Keep(_easy_keep(game.keepable_faces()))
    claims = game.claim_options()
    if claims:
        return Claim(best_claim(claims))
    return RollDice()


def choose_action(game: Game, level: Level, rng: RandomSource | random.Random) -> Action:
    """`decide`, with a roll made at once with `rng`: an action for `game.apply`."""
    decision = decide(game, level)
    if isinstance(decision, RollDice):
        return Roll(roll_dice(rng, game.dice_left))
    if isinstance(decision, WeaselDice):
        return Weasel(roll_dice(rng, len(game.roll or ())))
    return decision


def carry_out(game: Game, decision: Decision, rng: RandomSource | random.Random) -> list[Event]:
    """Play `decision` on `game`, rolling with `rng` where it asks for a roll; the events."""
    if isinstance(decision, RollDice):
        return game.roll_with(rng)
    if isinstance(decision, WeaselDice):
        return game.weasel_with(rng)
    return game.apply(decision)


def bot_name(level: Level, index: int) -> str:
    """A friendly name for the `index`-th computer player (from 0) of a level.

    Names differ for every (level, index), so several bots can share a table.
    """
    if index < 0:
        raise ValueError("a bot index starts at 0")
    offset = list(Level).index(level) * 2  # each level starts at its own name
    name = BOT_NAMES[(index + offset) % len(BOT_NAMES)]
    lap = (index + offset) // len(BOT_NAMES)
    if lap:
        name = f"{name} {lap + 1}"
    return t("pickomino.ai.bot.name", name=name, level=t(f"pickomino.ai.level.{level.value}"))


def _solved(game: Game, objective: Objective) -> Decision:
    best: ActionValue
    if game.expansion is not None:
        best = evaluate_extrawurm(game, objective).best
    else:
        best = evaluate_game(game, objective).best
    if best.move is Move.WEASEL:
        return WeaselDice()
    if best.move is Move.ACCEPT_FAILURE:
        return AcceptFailure()
    if best.face is not None:
        return Keep(best.face)
    if best.move is Move.ROLL:
        return RollDice()
    assert best.claim is not None
    return Claim(best.claim)


def _easy_keep(faces: tuple[Face, ...]) -> Face:
    # The worm and the 5 both count 5; the worm wins the tie since a tile needs one.
    return max(faces, key=lambda face: (POINTS[face], face))
