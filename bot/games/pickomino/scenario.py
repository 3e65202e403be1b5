"""Pickomino's scenario player: replay a forced-dice scenario, return the position.

The command is `python -m bot.games.scenario FILE` (bot/games/scenario.py), which
dispatches on the file's "game" key. The format is specified in shared/SCENARIOS.md.
Turn and step indexes in errors count from 0, as positions in the `turns` and
`steps` arrays.
"""

from __future__ import annotations

from typing import Any

from bot.games.pickomino.engine import Claim, ClaimOption, Face, Game, Keep, Phase, Roll, Rules
from bot.games.pickomino.engine.errors import PickominoError
from bot.games.pickomino.engine.serialization import check_position
from bot.games.scenario_errors import ScenarioError


def run_scenario(scenario: Any) -> dict[str, Any]:
    """Play a parsed scenario and return the resulting position (SCENARIOS.md output)."""
    if not isinstance(scenario, dict):
        raise ScenarioError("a scenario is a JSON object")
    game = _starting_game(scenario)
    turns = scenario.get("turns", [])
    if not isinstance(turns, list):
        raise ScenarioError("turns must be a list")
    for turn_index, turn in enumerate(turns):
        _play_turn(game, turn, turn_index)
    return _position(game)


def _starting_game(scenario: dict[str, Any]) -> Game:
    players = scenario.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ScenarioError("players must be a list of names")
    try:
        rules = Rules.from_dict(scenario.get("rules"))
        game = Game(players, rules)
    except (ValueError, PickominoError) as error:
        raise ScenarioError(str(error)) from None
    start = scenario.get("start")
    if start is None:
        return game
    if not isinstance(start, dict):
        raise ScenarioError("start must be an object")
    try:
        game.grill = sorted(_tiles(start.get("grill", [])))
        game.face_down = sorted(_tiles(start.get("face_down", [])))
        stacks = start.get("stacks", {})
        unknown = set(stacks) - set(players)
        if unknown:
            raise ScenarioError(f"unknown player {sorted(unknown)[0]!r} in start.stacks")
        game.stacks = {player: _tiles(stacks.get(player, [])) for player in players}
        current = start.get("current", players[0])
        if current not in players:
            raise ScenarioError(f"unknown player {current!r} as start.current")
        game.current = players.index(current)
        check_position(game)
    except (TypeError, ValueError, PickominoError) as error:
        raise ScenarioError(f"bad start position: {error}") from None
    return game


def _tiles(values: Any) -> list[int]:
    if not isinstance(values, list) or not all(type(v) is int for v in values):
        raise ValueError("tiles are lists of numbers")
    return list(values)


def _play_turn(game: Game, turn: Any, turn_index: int) -> None:
    steps = turn.get("steps") if isinstance(turn, dict) else None
    if not isinstance(steps, list):
        raise ScenarioError("a turn is an object with a list of steps", f"{turn_index}")
    if game.is_over:
        raise ScenarioError("the game is over", f"{turn_index}.0")
    turn_number = game.turn_number
    ended_by_failure = False
    for step_index, step in enumerate(steps):
        where = f"{turn_index}.{step_index}"
        if game.turn_number != turn_number or game.is_over:
            # A failure ended the turn already; "claim": "auto" may still close it.
            if ended_by_failure and step == {"claim": "auto"}:
                continue
            raise ScenarioError("the turn is over", where)
        try:
            ended_by_failure = _play_step(game, step)
        except PickominoError as error:
            raise ScenarioError(_lower_first(str(error)), where) from None
        except (TypeError, ValueError) as error:
            raise ScenarioError(str(error), where) from None
    if game.turn_number == turn_number and not game.is_over:
        raise ScenarioError("the turn has not ended", f"{turn_index}.{len(steps)}")


def _play_step(game: Game, step: Any) -> bool:
    """Play one step; return True when it ended the turn in a failure."""
    if not isinstance(step, dict):
        raise ValueError("a step is an object with a roll or a claim")
    turn_number = game.turn_number
    if "roll" in step:
        dice = step["roll"]
        if not isinstance(dice, list):
            raise ValueError("roll must be a list of faces")
        faces = tuple(Face.parse(face) for face in dice)
        keep = step.get("keep")
        failing_roll = set(game.kept).issuperset(faces)
        if keep is not None and failing_roll and game.phase is Phase.ROLL:
            raise ValueError("no face in this roll can be kept: it is a failure")
        game.apply(Roll(faces))
        if game.turn_number != turn_number or game.is_over:
            return True
        if keep is None:
            raise ValueError("this roll needs a keep: a face can be kept from it")
        game.apply(Keep(Face.parse(keep)))
        return game.turn_number != turn_number
    if "claim" in step:
        game.apply(Claim(_claim_option(game, step["claim"])))
        return False
    raise ValueError("a step has a roll or a claim")


def _claim_option(game: Game, claim: Any) -> ClaimOption:
    if claim == "auto":
        options = game.claim_options()
        if len(options) > 1:
            raise ValueError("more than one tile can be claimed: name one")
        if options:
            return options[0]
        raise ValueError(f"no tile can be claimed with {game.kept_total}")
    if isinstance(claim, dict) and set(claim) == {"grill"} and type(claim["grill"]) is int:
        return ClaimOption.grill(claim["grill"])
    if isinstance(claim, dict) and set(claim) == {"steal"} and isinstance(claim["steal"], str):
        victim = claim["steal"]
        if victim not in game.stacks:
            raise ValueError(f"unknown player {victim!r}")
        top = game.top_tile(victim)
        if top is None:
            raise ValueError(f"{victim} has no tile to steal")
        return ClaimOption.steal(top, victim)
    raise ValueError('a claim is {"grill": N}, {"steal": "name"} or "auto"')


def _lower_first(text: str) -> str:
    text = text.rstrip(".")
    return text[:1].lower() + text[1:]


def _position(game: Game) -> dict[str, Any]:
    over = game.is_over
    standings = game.standings()
    return {
        "grill": sorted(game.grill),
        "face_down": sorted(game.face_down),
        "stacks": {player: list(stack) for player, stack in game.stacks.items()},
        "scores": game.scores(),
        "current": None if over else game.current_player,
        "game_over": over,
        "winners": [s.player for s in standings if s.rank == 1] if over else [],
    }
