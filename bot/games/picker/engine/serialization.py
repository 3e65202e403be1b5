"""The whole game, mid-round included, as JSON-compatible data and back."""

from __future__ import annotations

from typing import Any

from bot.games.picker.engine.colours import COLOUR_INDEX, Colour
from bot.games.picker.engine.dice import DIE_VALUES, all_equal
from bot.games.picker.engine.errors import InvalidState
from bot.games.picker.engine.game import Game, Phase, check_players

SCHEMA_VERSION = 1


def game_to_dict(game: Game) -> dict[str, Any]:
    """Everything needed to continue the game exactly where it is."""
    return {
        "schema": SCHEMA_VERSION,
        "players": list(game.players),
        "computer": [player for player in game.players if player in game.computer],
        "left": [player for player in game.players if player in game.left],
        "first": game.first,
        "round": game.round,
        "phase": str(game.phase),
        "dice": None if game.dice is None else list(game.dice),
        "picks": [str(colour) for colour in game.picks],
        "picker": game.picker,
        "kept": {
            player: [[str(colour), value] for colour, value in kept]
            for player, kept in game.kept.items()
        },
        "abandoned": game.abandoned,
    }


def game_from_dict(data: dict[str, Any]) -> Game:
    """Rebuild a game stored by game_to_dict, checking it is a position the rules allow."""
    try:
        schema = data["schema"]
        if schema != SCHEMA_VERSION:
            raise InvalidState(f"unknown game schema version {schema!r}")
        game = Game.__new__(Game)
        game.players = [str(player) for player in data["players"]]
        game.computer = {str(player) for player in data.get("computer", [])}
        game.left = {str(player) for player in data.get("left", [])}
        game.first = _int(data["first"])
        game.round = _int(data["round"])
        game.phase = Phase(data["phase"])
        dice = data["dice"]
        game.dice = None if dice is None else tuple(_int(value) for value in dice)
        game.lowest = 0 if game.dice is None else min(game.dice, default=0)
        game.picks = [Colour(colour) for colour in data["picks"]]
        picker = data["picker"]
        game.picker = None if picker is None else _int(picker)
        game.kept = {
            str(player): [(Colour(colour), _int(value)) for colour, value in kept]
            for player, kept in data["kept"].items()
        }
        game.points = {
            player: sum(value for _, value in kept) for player, kept in game.kept.items()
        }
        game.abandoned = bool(data.get("abandoned", False))
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidState(f"stored game is malformed: {error!r}") from None
    check_position(game)
    return game


def _int(value: Any) -> int:
    if type(value) is not int:
        raise ValueError(f"{value!r} is not a whole number")
    return value


def check_position(game: Game) -> None:
    """Raise InvalidState unless the seats, the dice and everything kept add up."""
    players = game.players
    check_players(players)
    count = len(players)
    if not game.computer <= set(players) or not game.left <= game.computer:
        raise InvalidState(
            "computer and left seats must be seats, and a leaver's seat a computer's"
        )
    if set(game.kept) != set(players):
        raise InvalidState("every seat needs its kept dice, and only they")
    if not 0 <= game.first < count or not 0 <= game.round <= game.rounds_total:
        raise InvalidState("the first seat or the round is out of range")
    finished = game.round == game.rounds_total
    if finished != (game.phase is Phase.OVER and not game.abandoned):
        raise InvalidState("a game is over, unless abandoned, exactly after its last round")
    _check_round(game)
    for seat, player in enumerate(players):
        kept = game.kept[player]
        picked_now = (seat - game.first) % count < len(game.picks)
        if len(kept) != game.round + picked_now:
            raise InvalidState(f"{player} kept a die a round, no more and no less")
        if any(COLOUR_INDEX[colour] >= count or value not in DIE_VALUES for colour, value in kept):
            raise InvalidState(f"{player} kept a die that is not in play")


def _check_round(game: Game) -> None:
    dice, picks, count = game.dice, game.picks, len(game.players)
    if dice is None:
        if picks or game.picker is not None or game.phase is Phase.PICK:
            raise InvalidState("dice are kept only once they are rolled")
        return
    if len(dice) != count or not DIE_VALUES.issuperset(dice) or all_equal(dice):
        raise InvalidState("a roll has one die per seat, 1 to 6, not all equal")
    if game.phase is Phase.ROLL or len(picks) >= count or len(set(picks)) != len(picks):
        raise InvalidState("the dice on the table are kept once each, in the pick phase")
    if any(COLOUR_INDEX[colour] >= count for colour in picks):
        raise InvalidState("a kept colour is not in play")
    for index, colour in enumerate(picks):
        seat = (game.first + index) % count
        if game.kept[game.players[seat]][-1] != (colour, dice[COLOUR_INDEX[colour]]):
            raise InvalidState("the round's picks and the kept dice disagree")
    lowest_pick = next(
        (index for index, c in enumerate(picks) if dice[COLOUR_INDEX[c]] == game.lowest), None
    )
    expected = None if lowest_pick is None else (game.first + lowest_pick) % count
    if game.picker != expected:
        raise InvalidState("the Picker is the first to keep the round's lowest number")
