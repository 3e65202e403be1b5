"""Picker behind the session layer's GameAdapter protocol, and its move strings.

Moves: "pick:<colour>" (e.g. "pick:red"), the only choice a player makes. Rolling is
not a choice: the adapter rolls a round's dice as soon as the round begins (with the
session's dice), so the player to move always has dice to keep.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.picker.ai import Level, decide, hint_for, timeout_pick
from bot.games.picker.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Colour,
    Event,
    Game,
    IllegalMove,
    Phase,
    Pick,
    event_to_dict,
    game_from_dict,
    game_to_dict,
)
from bot.games.picker.words import hint_text
from bot.sessions.adapter import NO_COMPUTERS, EngineAdapter, GameEvent
from bot.sessions.adapter import IllegalMove as Refused

KIND = "picker"
PICK_PREFIX = "pick:"
BOT_NAMES = ("Dot", "Pebble", "Domino", "Cubby", "Pip", "Speckle", "Tumble", "Jinx")
LEFT_SEAT_LEVEL = Level.NORMAL  # who plays the seat of a person who left


def pick_move(colour: Colour) -> str:
    return f"{PICK_PREFIX}{colour.value}"


def parse_move(move: str) -> Pick:
    """The engine action a move string asks for; a refusal for anything else."""
    if not move.startswith(PICK_PREFIX):
        raise Refused()
    try:
        return Pick(Colour(move.removeprefix(PICK_PREFIX)))
    except ValueError:
        raise Refused() from None


class PickerAdapter(EngineAdapter[Game]):
    kind = KIND
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    bot_levels = tuple(level.value for level in Level)

    def event_to_dict(self, event: Event) -> GameEvent:
        return event_to_dict(event)

    def new_game(self, players: Sequence[str], options: Mapping[str, Any], rng: Any) -> Game:
        first = 0 if options.get("first_player") == "host" else rng.randrange(len(players))
        game = Game(players, first=first)
        game.roll_with(rng)
        return game

    def dump(self, game: Game) -> dict[str, Any]:
        return game_to_dict(game)

    def load(self, data: dict[str, Any]) -> Game:
        return game_from_dict(data)

    def turn_key(self, game: Game) -> str:
        return f"{game.round}:{len(game.picks)}"

    def play(self, game: Game, player: str, move: str, rng: Any) -> list[GameEvent]:
        if game.is_over or game.current_player != player:
            raise Refused()
        action = parse_move(move)
        try:
            events = game.apply(action)
        except IllegalMove as error:
            raise Refused(error.key, **error.params) from None
        return _with_next_roll(game, events, rng)

    def timeout(self, game: Game, rng: Any) -> list[GameEvent]:
        """The Normal computer choice is made for a player whose time ran out."""
        return _with_next_roll(game, game.apply(timeout_pick(game)), rng)

    def bot_name(self, level: str, index: int) -> str:
        return BOT_NAMES[index % len(BOT_NAMES)] + ("" if index < len(BOT_NAMES) else str(index))

    def bot_move(self, game: Game, level: str, computers: Mapping[str, str] = NO_COMPUTERS) -> str:
        # The same position always gets the same decision: a retry after a restart
        # decides as the first attempt did.
        rng = random.Random(f"{game.round}:{game.picks}:{game.dice}")
        choice = Level(level) if level else LEFT_SEAT_LEVEL
        return pick_move(decide(game, choice, rng, normal_seats(game, computers)).colour)

    def hint(
        self,
        game: Game,
        player: str,
        names: Mapping[str, str],
        computers: Mapping[str, str] = NO_COMPUTERS,
    ) -> str:
        return hint_text(hint_for(game.copy(), normal_seats=normal_seats(game, computers)), names)


def normal_seats(game: Game, computers: Mapping[str, str]) -> frozenset[int]:
    """The seats of `game` a Normal computer player plays (a person's kept seat too):
    Hard knows their rule rather than reading it from their keeps."""
    return frozenset(
        seat
        for seat, player in enumerate(game.players)
        if player in computers and (computers[player] or LEFT_SEAT_LEVEL) == Level.NORMAL
    )


def _with_next_roll(game: Game, events: list[Event], rng: Any) -> list[GameEvent]:
    """The events of a move, and the next round's roll when the move ended a round."""
    if game.phase is Phase.ROLL:
        events = [*events, *game.roll_with(rng)]
    return [event_to_dict(event) for event in events]
