"""The small protocol the session layer needs from a game (Pickomino is the first).

Players are strings (the Discord user id as text). Moves are short strings, the same
ones the buttons carry ("roll", "keep:4", ...), so any process can replay a click and a
computer player can produce moves of its own. Events are JSON-ready dicts with a "type".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

GameEvent = dict[str, Any]


class IllegalMove(Exception):
    """The game refused the move; the game object is unchanged."""


class RandomSource(Protocol):
    def random(self) -> float: ...

    def randrange(self, stop: int) -> int: ...


class GameAdapter(Protocol):
    kind: str
    min_players: int
    max_players: int

    def new_game(self, players: Sequence[str], options: Mapping[str, Any], rng: Any) -> Any:
        """A fresh game with `players` in seat order; players[0] is the host."""

    def dump(self, game: Any) -> dict[str, Any]:
        """The whole game as JSON-ready data."""

    def load(self, data: dict[str, Any]) -> Any:
        """Inverse of dump."""

    def copy(self, game: Any) -> Any:
        """An independent copy to try a move on."""

    def current_player(self, game: Any) -> str | None:
        """Who is to move, or None once the game is over."""

    def turn_key(self, game: Any) -> str:
        """Changes exactly when a new turn begins (the turn timer restarts then)."""

    def is_over(self, game: Any) -> bool: ...

    def is_abandoned(self, game: Any) -> bool: ...

    def play(self, game: Any, move: str, rng: Any) -> list[GameEvent]:
        """Play `move` for the player to move; raise IllegalMove if it is not allowed."""

    def timeout(self, game: Any) -> list[GameEvent]:
        """The turn timer ran out for the player to move."""

    def remove_player(self, game: Any, player: str) -> list[GameEvent]:
        """The player leaves the game (may end it as abandoned)."""

    def abandon(self, game: Any) -> list[GameEvent]:
        """End the game now as abandoned."""

    def bot_move(self, game: Any, level: str) -> str:
        """The move a computer player of `level` makes now (always legal)."""
