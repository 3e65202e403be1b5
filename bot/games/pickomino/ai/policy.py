"""Every action open to the player to move, valued under optimal play, best first.

The value of an action is what the player expects from the end of the turn when they
take it and play optimally after, for the position's objective: the chance to win the
game, at three or more players blended with the finishing order (Hard, outlook.py), or
the change of their own worms (Normal: a tile taken or stolen adds its worms, a
failure loses the top tile's worms).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.games.pickomino.ai.position import Objective, Position
from bot.games.pickomino.ai.rewards import TIE
from bot.games.pickomino.ai.solver import TurnValues, solve_position
from bot.games.pickomino.ai.states import TurnState
from bot.games.pickomino.engine.claims import ClaimOption, Source
from bot.games.pickomino.engine.dice import Face
from bot.games.pickomino.engine.game import Game, Phase


class Move(StrEnum):
    ROLL = "roll"  # roll the dice left
    STOP = "stop"  # stop now and take `claim`
    KEEP_ROLL = "keep_roll"  # keep every die showing `face`, then roll the rest
    KEEP_STOP = "keep_stop"  # keep `face`, then take `claim`; with None, the keep fails
    # Extrawurm only (ai/extrawurm.py):
    WEASEL = "weasel"  # roll the dice on the table again (`count` of them) with the Weasel
    ACCEPT_FAILURE = "accept_failure"  # take a roll with no new face as it is


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One possible action and its value (expected worms, or Hard's value) with best play after."""

    move: Move
    value: float
    face: Face | None = None  # the face kept, for KEEP_ROLL and KEEP_STOP
    count: int = 0  # how many dice show it
    claim: ClaimOption | None = None  # the tile taken, for STOP and KEEP_STOP

    @property
    def stops(self) -> bool:
        """True when the turn ends with this action (a claim or a failed keep)."""
        return self.move in (Move.STOP, Move.KEEP_STOP)


class RankedActions:
    """An evaluation's actions, best first: the best one, its value, one per face kept.
    Shared by the base game's Evaluation and ai/extrawurm.py's ExtrawurmEvaluation."""

    __slots__ = ()
    actions: tuple[ActionValue, ...]

    @property
    def best(self) -> ActionValue:
        """The optimal action (the first of `actions`)."""
        return self.actions[0]

    @property
    def value(self) -> float:
        """The turn's value from here under optimal play."""
        return self.actions[0].value

    def keep_options(self) -> tuple[ActionValue, ...]:
        """The best action for each face that can be kept, best face first."""
        seen: set[Face] = set()
        options = []
        for action in self.actions:
            if action.face is not None and action.face not in seen:
                seen.add(action.face)
                options.append(action)
        return tuple(options)


@dataclass(frozen=True, slots=True)
class Evaluation(RankedActions):
    """The actions open in one position, best first, and the solution behind them."""

    position: Position
    state: TurnState
    roll: tuple[Face, ...] | None  # the dice on the table, when a face must be kept
    actions: tuple[ActionValue, ...]
    values: TurnValues


def evaluate(
    position: Position,
    kept: Sequence[Face] = (),
    roll: Sequence[Face] | None = None,
) -> Evaluation:
    """Value every action open with `kept` dice and, if any, `roll` on the table.

    With a roll, the actions are keeping each new face (then rolling or stopping);
    without one, rolling (unless the turn is over) and stopping with each claim.
    Raises ValueError for a roll with no new face: that roll has failed already.
    """
    state = TurnState.from_kept(kept)
    values = solve_position(position)
    dice = tuple(Face(face) for face in roll) if roll is not None else None
    if dice is None:
        actions = _roll_or_stop(position, state, values)
    else:
        actions = _keeps(position, state, values, dice)
    if not actions:
        raise ValueError(f"no action is open with {list(kept)} kept and roll {roll}")
    return Evaluation(position, state, dice, tuple(sorted(actions, key=best_first)), values)


def evaluate_game(game: Game, objective: Objective = Objective.WIN) -> Evaluation:
    """Value every action open to the player to move in `game` (by default, as Hard)."""
    if game.phase is Phase.OVER:
        raise ValueError("the game is over")
    if game.expansion is not None:
        raise ValueError("an Extrawurm game: use extrawurm.evaluate_extrawurm")
    roll = game.roll if game.phase is Phase.KEEP else None
    return evaluate(Position.from_game(game, objective), game.kept, roll)


def _roll_or_stop(position: Position, state: TurnState, values: TurnValues) -> list[ActionValue]:
    actions = [
        ActionValue(Move.STOP, position.claim_value(option), claim=option)
        for option in position.claims(state.total, state.has_worm)
    ]
    roll = values.roll_value(state)
    if roll is not None:
        actions.append(ActionValue(Move.ROLL, roll))
    return actions


def _keeps(
    position: Position, state: TurnState, values: TurnValues, roll: tuple[Face, ...]
) -> list[ActionValue]:
    actions = []
    for face, count, after in state.keeps(roll):
        claim = position.best_claim(after.total, after.has_worm)
        if after.is_over:
            actions.append(ActionValue(Move.KEEP_STOP, values.value(after), face, count, claim))
            continue
        roll_value = values.roll_value(after)
        assert roll_value is not None  # the turn goes on, so a roll is possible
        actions.append(ActionValue(Move.KEEP_ROLL, roll_value, face, count))
        if claim is not None:
            actions.append(
                ActionValue(Move.KEEP_STOP, position.claim_value(claim), face, count, claim)
            )
    return actions


# Ties: a sure end before an equal gamble (as the solver does, within its TIE), keeping
# before the Weasel (it is kept for a worse roll), a steal before a grill tile of the
# same worms, then the higher face.
_RANK = {
    Move.STOP: 0,
    Move.KEEP_STOP: 0,
    Move.ACCEPT_FAILURE: 0,
    Move.KEEP_ROLL: 1,
    Move.ROLL: 1,
    Move.WEASEL: 2,
}


def best_first(action: ActionValue) -> tuple[float, int, bool, int]:
    """The sort key of actions, best first (for the base game and Extrawurm alike)."""
    steals = action.claim is not None and action.claim.source is Source.STEAL
    face = int(action.face) if action.face is not None else 0
    return (-round(action.value / TIE), _RANK[action.move], not steals, -face)
