"""What the solver needs to know about the game around a turn.

None of it changes during a turn: the face-up grill, the player's own top tile (lost on
a failure) and the opponents' top tiles (stolen with an exact sum).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.games.pickomino.ai.states import MAX_TOTAL
from bot.games.pickomino.engine.claims import ClaimOption, best_claim, claim_options
from bot.games.pickomino.engine.game import Game
from bot.games.pickomino.engine.rules import LowerTile
from bot.games.pickomino.engine.tiles import ALL_TILES, worms

Rewards = tuple[float | None, ...]
"""Per final sum 0 to 40 (with a worm kept): what stopping gives, None when nothing."""


@dataclass(frozen=True, slots=True)
class Position:
    """The tiles around the turn of the player to move."""

    grill: tuple[int, ...] = ALL_TILES  # face-up grill tiles, ascending
    own_top: int | None = None
    opponent_tops: tuple[tuple[str, int], ...] = ()  # (opponent, their top tile)
    lower_tile: LowerTile = LowerTile.HIGHEST

    @classmethod
    def from_game(cls, game: Game) -> Position:
        """The position of the player to move in `game`."""
        player = game.current_player
        tops = tuple(
            (opponent, stack[-1])
            for opponent, stack in game.stacks.items()
            if stack and opponent != player
        )
        return cls(tuple(game.grill), game.top_tile(player), tops, game.rules.lower_tile)

    def claims(self, total: int, has_worm: bool) -> list[ClaimOption]:
        """Every tile stopping with `total` would take, as the engine lists them."""
        return claim_options(
            total,
            has_worm,
            list(self.grill),
            dict(self.opponent_tops),
            any_lower_tile=self.lower_tile is LowerTile.ANY,
        )

    def best_claim(self, total: int, has_worm: bool) -> ClaimOption | None:
        """The claim worth most worms to the player; a steal wins a tie (it also hurts)."""
        options = self.claims(total, has_worm)
        return best_claim(options) if options else None

    @property
    def fail_value(self) -> float:
        """The change of the player's worms on a failure: the top tile goes back."""
        return -float(worms(self.own_top)) if self.own_top is not None else 0.0

    def rewards(self) -> Rewards:
        """What stopping gives for each sum, the solver's view of this position."""
        return _rewards(self)


@lru_cache(maxsize=256)
def _rewards(position: Position) -> Rewards:
    # Memoized: a turn asks for the same table at every decision.
    rewards: list[float | None] = []
    for total in range(MAX_TOTAL + 1):
        best = position.best_claim(total, has_worm=True)
        rewards.append(float(best.worms) if best else None)
    return tuple(rewards)
