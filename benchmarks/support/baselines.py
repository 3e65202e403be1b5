"""Public Pickomino bots as benchmark opponents, written from their public descriptions.

Each baseline is a function `game -> Decision`, like `players.decide` at one level:

- `optimal_bot`: ttencate/pickomino's OptimalBot. It plays each turn exactly for the
  expected worms of the turn, a steal of w worms worth w x (1 + 1/(players - 1)) (what
  it takes from the victim, shared among the opponents), a failure worth minus the
  worms of its own top tile.
- `todays_hard`: this bot's Hard before the win-chance objective: the same exact turn,
  a steal worth w, a failure minus the top tile's worms.
- `env_heuristic`: pickomino-env's built-in bot. It keeps the face whose dice add the
  most points (the worm winning ties), keeps worms whenever it can from its third roll
  on, and stops as soon as it can take a tile (the total reaches the lowest grill tile
  with a worm kept), taking the tile worth most.

The two solver baselines reuse the exact turn solver with their own reward tables:
they differ from Hard only in how they value the ends of a turn.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.games.pickomino.ai.players import Decision, RollDice
from bot.games.pickomino.ai.position import Position
from bot.games.pickomino.ai.rewards import TIE
from bot.games.pickomino.ai.solver import TurnValues, solve
from bot.games.pickomino.ai.states import MAX_TOTAL, TurnState
from bot.games.pickomino.engine import Claim, ClaimOption, Face, Game, Keep, Phase, Source
from bot.games.pickomino.engine.claims import best_claim
from bot.games.pickomino.engine.dice import POINTS

Baseline = Callable[[Game], Decision]

WORMS_FROM_THIRD_ROLL = 3  # pickomino-env keeps worms whenever it can from this roll on


def optimal_bot(game: Game) -> Decision:
    """ttencate's OptimalBot: a steal is worth w x (1 + 1/(players - 1))."""
    return _turn_solver(game, steal_factor=1 + 1 / (len(game.players) - 1))


def todays_hard(game: Game) -> Decision:
    """Hard as it was: the expected change of its own worms this turn."""
    return _turn_solver(game, steal_factor=1.0)


def env_heuristic(game: Game) -> Decision:
    """pickomino-env's heuristic bot."""
    if game.phase is Phase.KEEP:
        faces = game.keepable_faces()
        rolls_this_turn = len(set(game.kept)) + 1
        if Face.WORM in faces and rolls_this_turn >= WORMS_FROM_THIRD_ROLL:
            return Keep(Face.WORM)
        roll = game.roll or ()
        return Keep(max(faces, key=lambda face: (roll.count(face) * POINTS[face], face)))
    claims = game.claim_options()
    if claims:
        return Claim(best_claim(claims))
    return RollDice()


BASELINES: dict[str, Baseline] = {
    "optimal_bot": optimal_bot,
    "todays_hard": todays_hard,
    "env_heuristic": env_heuristic,
}


def _turn_solver(game: Game, steal_factor: float) -> Decision:
    position = Position.from_game(game)

    def worth(option: ClaimOption) -> tuple[float, bool]:
        steals = option.source is Source.STEAL
        return (option.worms * (steal_factor if steals else 1.0), steals)

    rewards = tuple(
        max((worth(option)[0] for option in position.claims(total, True)), default=None)
        for total in range(MAX_TOTAL + 1)
    )
    values = solve(rewards, position.fail_value)
    state = TurnState.from_kept(game.kept)
    if game.phase is Phase.KEEP:
        roll = game.roll or ()
        return Keep(
            max(game.keepable_faces(), key=lambda face: _keep_value(values, state, roll, face))
        )
    claims = game.claim_options()
    roll_value = values.roll_value(state) if game.phase is Phase.ROLL else None
    if claims:
        best = max(claims, key=worth)
        if roll_value is None or worth(best)[0] >= roll_value - TIE:
            return Claim(best)
    return RollDice()


def _keep_value(
    values: TurnValues, state: TurnState, roll: tuple[Face, ...], face: Face
) -> tuple[float, int]:
    return (values.value(state.keep(face, roll.count(face))), face)
