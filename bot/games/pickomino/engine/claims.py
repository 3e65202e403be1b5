"""Claim options: which tile stopping now would take, and from where."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.games.pickomino.engine.tiles import ALL_TILES, worms


class Source(StrEnum):
    GRILL = "grill"
    STEAL = "steal"


@dataclass(frozen=True, slots=True)
class ClaimOption:
    """One tile the player may take by stopping: from the grill, or an opponent's top."""

    tile: int
    source: Source = Source.GRILL
    victim: str | None = None  # the opponent robbed, for a steal

    @property
    def worms(self) -> int:
        return worms(self.tile)

    @classmethod
    def grill(cls, tile: int) -> ClaimOption:
        """Taking `tile` from the grill."""
        return cls(tile)

    @classmethod
    def steal(cls, tile: int, victim: str) -> ClaimOption:
        """Taking `tile` from the top of `victim`'s stack."""
        return cls(tile, Source.STEAL, victim)


# Options are immutable values, so the grill's are built once per tile and shared:
# building one costs ~400 ns, and a claim then finds the offered option by identity.
_GRILL_OPTIONS: dict[int, ClaimOption] = {tile: ClaimOption(tile) for tile in ALL_TILES}


def _grill_option(tile: int) -> ClaimOption:
    return _GRILL_OPTIONS.get(tile) or ClaimOption(tile)


def claim_options(
    total: int,
    has_worm: bool,
    grill: list[int],
    opponents_tops: dict[str, int],
    any_lower_tile: bool,
) -> list[ClaimOption]:
    """Every tile a player could take with `total` on their kept dice (RULES.md).

    `grill` is the face-up grill, ascending; `opponents_tops` maps each opponent to
    the value of their top tile. Grill options come first, highest first, then a steal.
    """
    if not has_worm or not grill:
        return []
    if total in grill:
        return [_grill_option(total)]
    options: list[ClaimOption] = []
    below = [tile for tile in grill if tile < total]
    if below:
        chosen = reversed(below) if any_lower_tile else (below[-1],)
        options.extend(map(_grill_option, chosen))
    for opponent, top in opponents_tops.items():
        if top == total:
            options.append(ClaimOption(total, Source.STEAL, opponent))
    return options


def best_claim(options: list[ClaimOption]) -> ClaimOption:
    """The option worth most worms to the player; a steal wins a tie, since it also hurts
    the victim. `options` must not be empty."""
    return max(options, key=lambda option: (option.worms, option.source is Source.STEAL))
