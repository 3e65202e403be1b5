"""What a game gives for /<game> learn: a short practice game for one person against
computer players, whose first turns are scripted to show the rules (the game's own
renderer turns its "what now" line into a coaching line in such a game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.sessions.model import Session


class Tutorial(Protocol):
    """A game's practice game: who sits at the table, how it starts, and its dice."""

    computer_players: int  # Normal-level seats beside the learner (the game's minimum)
    level: str  # the computer players' level, one of the adapter's bot_levels

    @property
    def options(self) -> Mapping[str, Any]:
        """The practice game's rule options (shown nowhere: the game has no lobby)."""
        ...

    def new_game(self, players: Sequence[str], rng: Any) -> Any:
        """The practice game, `players[0]` (the learner) to move first; `rng` is the
        practice dice of the change that starts it."""
        ...

    def dice(self, session: Session, rng: Any) -> Any:
        """The random source of one change to the practice game `session` (the draft the
        change edits, read when the dice roll): the script's dice while it lasts, then
        `rng`'s."""
        ...
