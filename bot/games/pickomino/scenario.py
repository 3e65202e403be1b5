"""Pickomino's scenario player: replay a forced-dice scenario, return the position.

The command is `python -m bot.games.scenario FILE` (bot/games/scenario.py), which
dispatches on the file's "game" key. The format is specified in shared/SCENARIOS.md.
Turn and step indexes in errors count from 0, as positions in the `turns` and
`steps` arrays.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from bot.games.pickomino.engine import (
    EXTRA_TILES,
    EXTRAWURM_LAYOUT,
    SETUP_TILES,
    AcceptFailure,
    Claim,
    ClaimOption,
    Face,
    Game,
    Keep,
    Phase,
    Roll,
    Rules,
    Specialist,
    Weasel,
)
from bot.games.pickomino.engine.errors import IllegalAction, PickominoError
from bot.games.pickomino.engine.specialists import Place
from bot.i18n import t
from bot.plugin.scenario_errors import ScenarioError


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
        return _start_position(start, players, rules)
    except (TypeError, ValueError, PickominoError) as error:
        raise ScenarioError(f"bad start position: {_lower_first(_english(error))}") from None


def _start_position(start: dict[str, Any], players: list[str], rules: Rules) -> Game:
    stacks = _per_player(start.get("stacks", {}), players, "stacks", _tiles)
    current = start.get("current", players[0])
    if current not in players:
        raise ValueError(f"unknown player {current!r} as start.current")
    grill, face_down = _tiles(start.get("grill", [])), _tiles(start.get("face_down", []))
    expansion = {key: start[key] for key in EXTRAWURM_START_KEYS if key in start}
    if expansion and not rules.extrawurm:
        raise ValueError(f"start.{next(iter(expansion))} needs the rule extrawurm")
    if rules.extrawurm:
        expansion = _extrawurm_start(start, players, grill)
    return Game.from_position(
        players,
        rules,
        grill=grill,
        face_down=face_down,
        stacks=stacks,
        current=current,
        **expansion,
    )


EXTRAWURM_START_KEYS = ("extras", "specialists", "bratwurms")


def _extrawurm_start(start: dict[str, Any], players: list[str], grill: list[int]) -> dict[str, Any]:
    """The expansion's part of a start (SCENARIOS.md "Extrawurm scenarios")."""
    extras = _per_player(start.get("extras", {}), players, "extras", _tiles)
    for tile in EXTRA_TILES:
        if tile not in grill and not any(tile in held for held in extras.values()):
            raise ValueError(f"tile {tile} is neither on the grill nor in a player's extras")
    specialists = start.get("specialists", {})
    if not isinstance(specialists, dict):
        raise ValueError("start.specialists maps each specialist to a tile, a player or null")
    places: dict[Specialist, Place] = {}
    for name, place in specialists.items():
        if name not in set(Specialist):
            raise ValueError(f"unknown specialist {name!r} in start.specialists")
        if place is not None and type(place) is not int and place not in players:
            raise ValueError(f"{name} is at {place!r}: not a tile, a player or null")
        places[Specialist(name)] = place
    if isinstance(places.get(Specialist.RAVEN), str):
        raise ValueError("the Raven is never held by a player")
    for specialist, tile in SETUP_TILES.items():
        if specialist not in places and tile not in grill:
            raise ValueError(f"{specialist} starts on {tile}, which is not face up on the grill")
    bratwurms = start.get("bratwurms", {})
    if not isinstance(bratwurms, dict):
        raise ValueError("start.bratwurms maps supply and players to a number of tokens")
    supply = bratwurms.get("supply")
    held = _per_player(
        {key: count for key, count in bratwurms.items() if key != "supply"},
        players,
        "bratwurms",
        _count,
    )
    if supply is not None:
        _count(supply)
    total, taken = EXTRAWURM_LAYOUT.bratwurms, sum(held.values())
    if taken > total or (supply is not None and supply + taken != total):
        raise ValueError(f"the supply and the players hold {total} Bratwurms in all")
    return {"extras": extras, "specialists": places, "bratwurms": held, "supply": supply}


def _per_player(values: Any, players: list[str], key: str, read: Any) -> dict[str, Any]:
    if not isinstance(values, dict):
        raise ValueError(f"start.{key} maps players to their {key}")
    unknown = set(values) - set(players)
    if unknown:
        raise ValueError(f"unknown player {sorted(unknown)[0]!r} in start.{key}")
    return {player: read(value) for player, value in values.items()}


def _tiles(values: Any) -> list[int]:
    if not isinstance(values, list) or not all(type(v) is int for v in values):
        raise ValueError("tiles are lists of numbers")
    return list(values)


def _count(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise ValueError("a number of Bratwurms is a whole number, 0 or more")
    return int(value)


class Ending(Enum):
    """How a step left the turn, for the claim step SCENARIOS.md asks for."""

    GOING_ON = "going on"  # more rolls, or a claim to make
    FAILED_ROLL = "failed roll"  # a roll showed no new face: the turn is over
    FAILED_BY_ITSELF = "failed by itself"  # all dice or faces kept, no tile: "auto" next
    CLOSED = "closed"  # a claim ended the turn


def _play_turn(game: Game, turn: Any, turn_index: int) -> None:
    steps = turn.get("steps") if isinstance(turn, dict) else None
    if not isinstance(steps, list):
        raise ScenarioError("a turn is an object with a list of steps", f"{turn_index}")
    if game.is_over:
        raise ScenarioError("the game is over", f"{turn_index}.0")
    ending = Ending.GOING_ON
    for step_index, step in enumerate(steps):
        where = f"{turn_index}.{step_index}"
        if ending is Ending.FAILED_BY_ITSELF and step == {"claim": "auto"}:
            ending = Ending.CLOSED  # "auto" closes a turn that failed by itself
            continue
        if ending is not Ending.GOING_ON:
            raise ScenarioError(_why_turn_over(ending), where)
        try:
            ending = _play_step(game, step)
        except PickominoError as error:
            raise ScenarioError(_lower_first(_english(error)), where) from None
        except (TypeError, ValueError) as error:
            raise ScenarioError(str(error), where) from None
    where = f"{turn_index}.{len(steps)}"
    if ending is Ending.FAILED_BY_ITSELF:
        raise ScenarioError(
            'the turn ended by itself: it still needs its claim step ("auto")', where
        )
    if ending is Ending.GOING_ON:
        raise ScenarioError("the turn has not ended", where)


def _why_turn_over(ending: Ending) -> str:
    if ending is Ending.FAILED_ROLL:
        return "the turn is over: the roll showed no new face, so it has no claim step"
    if ending is Ending.FAILED_BY_ITSELF:
        return 'the turn failed by itself: its claim step is "auto"'
    return "the turn is over"


def _play_step(game: Game, step: Any) -> Ending:
    """Play one step; return how it left the turn."""
    if not isinstance(step, dict):
        raise ValueError("a step is an object with a roll or a claim")
    if "roll" in step:
        return _play_roll(game, step)
    if "claim" in step:
        turn_number = game.turn_number
        game.apply(Claim(_claim_option(game, step["claim"])))
        return Ending.CLOSED if _turn_ended(game, turn_number) else Ending.GOING_ON
    raise ValueError("a step has a roll or a claim")


def _play_roll(game: Game, step: dict[str, Any]) -> Ending:
    turn_number = game.turn_number
    player = game.current_player
    faces = _faces(step["roll"], "roll")
    again = None if step.get("weasel") is None else _faces(step["weasel"], "weasel")
    keep = step.get("keep")
    kept_from = faces if again is None else again
    if keep is not None and game.phase is Phase.ROLL and set(game.kept).issuperset(kept_from):
        raise ValueError("no face in this roll can be kept: it is a failure")
    if again is not None and game.specialist_of(player) is not Specialist.WEASEL:
        raise ValueError(f"{player} does not hold the Weasel, so cannot roll again")
    game.apply(Roll(faces))
    if again is not None:
        game.apply(Weasel(again))
    elif game.phase is Phase.NO_NEW_FACE:
        game.apply(AcceptFailure())  # no "weasel": the roll is taken as it is
    if _turn_ended(game, turn_number):
        return Ending.FAILED_ROLL
    if keep is None:
        raise ValueError("this roll needs a keep: a face can be kept from it")
    game.apply(Keep(Face.parse(keep)))
    return Ending.FAILED_BY_ITSELF if _turn_ended(game, turn_number) else Ending.GOING_ON


def _faces(dice: Any, key: str) -> tuple[Face, ...]:
    if not isinstance(dice, list):
        raise ValueError(f"{key} must be a list of faces")
    return tuple(Face.parse(face) for face in dice)


def _turn_ended(game: Game, turn_number: int) -> bool:
    return game.turn_number != turn_number or game.is_over


def _claim_option(game: Game, claim: Any) -> ClaimOption:
    if claim == "auto":
        options = game.claim_options()
        if len(options) > 1:
            raise ValueError("more than one tile can be claimed: name one")
        if options:
            return options[0]
        raise ValueError(f"no tile can be claimed with {game.claim_total}")
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
    position = {
        "grill": sorted(game.grill),
        "face_down": sorted(game.face_down),
        "stacks": {player: list(stack) for player, stack in game.stacks.items()},
        "scores": game.scores(),
        "current": None if over else game.current_player,
        "game_over": over,
        "winners": [s.player for s in standings if s.rank == 1] if over else [],
    }
    expansion = game.expansion
    if expansion is None:
        return position
    return {
        **position,
        "extras": {player: sorted(game.extras(player)) for player in game.players},
        "specialists": {str(name): place for name, place in expansion.specialists.items()},
        "bratwurms": {
            "supply": expansion.supply,
            **{player: game.bratwurms(player) for player in game.players},
        },
    }


def _english(error: Exception) -> str:
    """The engine's reason in English: a scenario file is written and read by developers."""
    if isinstance(error, IllegalAction):
        return t(error.key, "en", **error.params)
    return str(error)
