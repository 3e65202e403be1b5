"""Picker's scenario runner: replay a forced-dice game, return the position.

Usage: python -m bot.games.picker.scenario FILE   (FILE may be - for standard input)

The format is the "Picker scenarios" section of shared/SCENARIOS.md. It prints the
position as JSON and exits 0, or prints one line `error: <where>: <reason>` on
standard error and exits 2. Round and pick indexes count from 0, as positions in the
`rounds` and `picks` arrays (the same as Pickomino's turn and step indexes); an error
in a round's rolls names the round alone.
"""

from __future__ import annotations

from typing import Any

from bot.games.picker.engine import (
    Game,
    IllegalMove,
    InvalidState,
    Phase,
    Pick,
    RollDice,
    total_bonus,
)
from bot.i18n import t
from bot.plugin.scenario_errors import ScenarioError as SharedScenarioError

GAME = "picker"


class ScenarioError(SharedScenarioError):
    """A scenario that cannot be played: `location` is "round.pick", "round", or "" for
    the file as a whole; `reason` says why in a few words."""

    def __init__(self, location: str, reason: str) -> None:
        super().__init__(reason, location)
        self.location = location


def run_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Play a parsed Picker scenario and return the resulting position (SCENARIOS.md).

    Keys the format does not name (such as a test's "expect") are ignored.
    """
    if not isinstance(data, dict):
        raise ScenarioError("", "a scenario is a JSON object")
    if data.get("game", GAME) != GAME:
        raise ScenarioError("", f"not a Picker scenario: game is {data.get('game')!r}")
    game = _starting_game(data)
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list):
        raise ScenarioError("", "rounds must be a list")
    for index, round_data in enumerate(rounds):
        _play_round(game, round_data, index, last=index == len(rounds) - 1)
    return _position(game)


def _starting_game(data: dict[str, Any]) -> Game:
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ScenarioError("", "players must be a list of names")
    first = data.get("first", players[0] if players else None)
    if first not in players:
        raise ScenarioError("", f"first must be one of the players, not {first!r}")
    try:
        return Game(players, first=players.index(first))
    except InvalidState as error:
        raise ScenarioError("", str(error)) from None


def _play_round(game: Game, data: Any, index: int, *, last: bool) -> None:
    where = str(index)
    if not isinstance(data, dict):
        raise ScenarioError(where, "a round is an object with rolls and picks")
    rolls, picks = data.get("rolls"), data.get("picks", [])
    if not isinstance(rolls, list) or not rolls:
        raise ScenarioError(where, "a round needs its rolls, a list of one or more")
    if not isinstance(picks, list):
        raise ScenarioError(where, "picks must be a list of colours")
    if game.is_over:
        raise ScenarioError(where, f"the game is over: it has {game.rounds_total} rounds")
    _roll(game, rolls, where)
    round_before = game.round
    for pick_index, colour in enumerate(picks):
        at = f"{index}.{pick_index}"
        if game.round != round_before:
            raise ScenarioError(at, "the round is over: every die is kept")
        if not isinstance(colour, str):
            raise ScenarioError(at, f"a pick is a colour name, not {colour!r}")
        try:
            game.apply(Pick(colour))  # type: ignore[arg-type]  # the engine checks the name
        except IllegalMove as error:
            raise ScenarioError(at, _reason(error)) from None
    if game.round == round_before and not last:
        raise ScenarioError(
            f"{index}.{len(picks)}", "the round has not ended: only the last round may stop short"
        )


def _roll(game: Game, rolls: list[Any], where: str) -> None:
    """Put the round's rolls on the table: all but the last a re-roll, the last a real one."""
    for roll_index, roll in enumerate(rolls):
        if not isinstance(roll, list):
            raise ScenarioError(where, f"roll {roll_index} is not a list of numbers")
        try:
            game.apply(RollDice(tuple(roll)))
        except IllegalMove as error:
            raise ScenarioError(where, f"roll {roll_index}: {_reason(error)}") from None
        is_last = roll_index == len(rolls) - 1
        if game.phase is Phase.PICK and not is_last:
            raise ScenarioError(
                where, f"roll {roll_index} shows different numbers: no re-roll was needed"
            )
        if game.phase is Phase.ROLL and is_last:
            raise ScenarioError(
                where, f"roll {roll_index} shows {roll[0]} on every die: it needs a re-roll"
            )


def _reason(error: IllegalMove) -> str:
    """The engine's reason for the player, as the middle of an error line."""
    text = t(error.key, **error.params).rstrip(".")
    return text[:1].lower() + text[1:]


def _position(game: Game) -> dict[str, Any]:
    over = game.is_over
    colours = {player: [str(c) for c in game.colours_kept(player)] for player in game.players}
    bonus = {player: total_bonus(game.colours_kept(player)) for player in game.players}
    return {
        "round": game.round,
        "first": None if over else game.first_player,
        "points": dict(game.points),
        "colours": colours,
        "bonus": bonus,
        "scores": {player: game.points[player] + bonus[player] for player in game.players},
        "game_over": over,
        "winners": [s.player for s in game.standings() if s.rank == 1] if over else [],
    }
