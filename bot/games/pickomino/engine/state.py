"""The parts of a game that the rule modules under game.py read and change.

game.py runs the turn and calls checks.py and extrawurm_turns.py for their parts of
the rules; those take a `GameState`, which Game is, rather than importing Game, so the
engine's modules import one way only: game.py on top, the rule modules below it.
"""

from __future__ import annotations

from typing import Protocol

from bot.games.pickomino.engine.claims import ClaimOption
from bot.games.pickomino.engine.dice import Face
from bot.games.pickomino.engine.extrawurm import ExtrawurmState
from bot.games.pickomino.engine.phases import Phase
from bot.games.pickomino.engine.rules import Rules


class GameState(Protocol):
    """A game's tiles, seats and turn in progress (engine/game.py's Game has them all)."""

    players: list[str]
    rules: Rules
    grill: list[int]  # face-up tiles, ascending
    face_down: list[int]
    stacks: dict[str, list[int]]  # bottom to top
    current: int  # the seat to move
    phase: Phase
    kept: list[Face]
    roll: tuple[Face, ...] | None
    turn_dice: int
    abandoned: bool
    expansion: ExtrawurmState | None  # Extrawurm only

    @property
    def current_player(self) -> str:
        """The name of the player to move."""
        ...

    @property
    def canned_worm_counts(self) -> bool:
        """Extrawurm: a claim now counts the Canned Worm as the worm."""
        ...

    @property
    def claim_total(self) -> int:
        """The total a claim is made with (the kept dice, and the Canned Worm's 5)."""
        ...

    def options_for_total(
        self, total: int, *, extra_tiles: tuple[int, ...] = (), may_take_extra: bool = True
    ) -> list[ClaimOption]:
        """The tiles the player to move could take with `total` and a worm kept."""
        ...
