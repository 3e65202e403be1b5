"""The protocol the session layer needs from a game: all it knows of any game.

Players are strings (the Discord user id as text). Moves are short strings, the same
ones the buttons carry ("roll", "keep:4", "pick:red", ...), so any process can replay a
click and a computer player can produce moves of its own. Events are JSON-ready dicts
with a "type".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol, Self, TypeVar

GameEvent = dict[str, Any]
GameT = TypeVar("GameT")

ILLEGAL_MOVE_KEY = "error.illegal_move"
NO_COMPUTERS: Mapping[str, str] = MappingProxyType({})  # no seat a computer plays


class IllegalMove(Exception):
    """The game refused the move; the game object is unchanged.

    `key` and `params` word the reason for the player through bot.i18n.t, so a game's
    own reason (why a keep is not allowed) reaches them instead of a generic refusal.
    """

    def __init__(self, key: str = ILLEGAL_MOVE_KEY, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class RandomSource(Protocol):
    def random(self) -> float: ...

    def randrange(self, stop: int) -> int: ...


class GameAdapter(Protocol[GameT]):
    """One game behind the session layer. `GameT` is the game's own state object."""

    kind: str
    min_players: int
    max_players: int
    bot_levels: tuple[str, ...]  # the computer players' levels, easiest first

    def new_game(self, players: Sequence[str], options: Mapping[str, Any], rng: Any) -> GameT:
        """A fresh game with `players` in seat order; players[0] is the host."""
        ...

    def dump(self, game: GameT) -> dict[str, Any]:
        """The whole game as JSON-ready data."""
        ...

    def load(self, data: dict[str, Any]) -> GameT:
        """Inverse of dump (older stored forms too)."""
        ...

    def copy(self, game: GameT) -> GameT:
        """An independent copy to try a move on."""
        ...

    def current_player(self, game: GameT) -> str | None:
        """Who is to move, or None once the game is over."""
        ...

    def turn_key(self, game: GameT) -> str:
        """Changes exactly when a new turn begins (the turn timer restarts then)."""
        ...

    def is_over(self, game: GameT) -> bool: ...

    def is_abandoned(self, game: GameT) -> bool: ...

    def play(self, game: GameT, player: str, move: str, rng: Any) -> list[GameEvent]:
        """`player` plays `move`; raise IllegalMove if it is not theirs to play now."""
        ...

    def timeout(self, game: GameT, rng: Any) -> list[GameEvent]:
        """The turn timer ran out for the player to move (a game may need dice for what
        follows)."""
        ...

    def remove_player(self, game: GameT, player: str) -> list[GameEvent]:
        """The player leaves the game (may end it as abandoned)."""
        ...

    def abandon(self, game: GameT) -> list[GameEvent]:
        """End the game now as abandoned."""
        ...

    def bot_name(self, level: str, index: int) -> str:
        """The `index`-th name for a computer player of `level` (the lobby takes the first
        one nobody at the table has)."""
        ...

    def bot_move(self, game: GameT, level: str, computers: Mapping[str, str] = NO_COMPUTERS) -> str:
        """The move a computer player of `level` makes now (always legal). `level` is
        "" for the seat of a person who left a game that keeps their seat. `computers`
        gives the level of every seat a computer plays, by player id (the same "" for a
        seat kept for a person who left): a game's strong player may play against a
        computer player's known rule instead of guessing it."""
        ...

    def hint(
        self,
        game: GameT,
        player: str,
        names: Mapping[str, str],
        computers: Mapping[str, str] = NO_COMPUTERS,
    ) -> str:
        """Advice for `player`, who is to move, in words (may take a while: it is run
        off the event loop). `names` maps player ids to display names; `computers` as
        for `bot_move`."""
        ...


class Engine(Protocol):
    """What an engine's game object offers that adapters would otherwise each pass on
    by hand: who moves, whether it is over or abandoned, a copy, leaving, abandoning."""

    @property
    def is_over(self) -> bool: ...

    @property
    def abandoned(self) -> bool: ...

    @property
    def current_player(self) -> str: ...

    def copy(self) -> Self: ...

    def remove_player(self, player: str) -> Sequence[Any]: ...

    def abandon(self) -> Sequence[Any]: ...


EngineT = TypeVar("EngineT", bound=Engine)


class EngineAdapter(GameAdapter[EngineT]):
    """A `GameAdapter` whose game object is an `Engine`: the methods every such game
    answers the same way, so a game's adapter holds only what is its own. It names how
    its events become JSON (`event_to_dict`)."""

    def event_to_dict(self, event: Any) -> GameEvent:
        raise NotImplementedError

    def copy(self, game: EngineT) -> EngineT:
        return game.copy()

    def current_player(self, game: EngineT) -> str | None:
        return None if game.is_over else game.current_player

    def is_over(self, game: EngineT) -> bool:
        return game.is_over

    def is_abandoned(self, game: EngineT) -> bool:
        return game.abandoned

    def remove_player(self, game: EngineT, player: str) -> list[GameEvent]:
        return [self.event_to_dict(event) for event in game.remove_player(player)]

    def abandon(self, game: EngineT) -> list[GameEvent]:
        return [self.event_to_dict(event) for event in game.abandon()]


AnyAdapter = GameAdapter[Any]
