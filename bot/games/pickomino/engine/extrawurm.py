"""The Extrawurm expansion's part of a game: extra tiles, specialists and Bratwurms.

The state is plain data the Game holds (None in a base game, so the base game's hot
paths pay one `is None` test). How specialists move is in the Game, which owns the
grill they move on; the pure look-ups live here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.games.pickomino.engine.errors import InvalidState
from bot.games.pickomino.engine.specialists import SETUP_TILES, Place, Specialist
from bot.games.pickomino.engine.tiles import EXTRAWURM_LAYOUT


@dataclass(slots=True)
class ExtrawurmState:
    """Who holds what of the expansion's components."""

    extras: dict[str, list[int]]  # each player's 11 or 13, beside the stack (at most one)
    specialists: dict[Specialist, Place]  # a grill tile, a holder, or None once out
    bratwurms: dict[str, int]  # tokens held by each player
    supply: int  # tokens not held by anyone
    weasel_used: bool = False  # the Weasel re-rolled in the turn in progress

    @classmethod
    def setup(cls, players: Iterable[str]) -> ExtrawurmState:
        """The expansion's setup: specialists on their tiles, every Bratwurm in the supply."""
        players = list(players)
        return cls(
            extras={player: [] for player in players},
            specialists=dict(SETUP_TILES),
            bratwurms=dict.fromkeys(players, 0),
            supply=EXTRAWURM_LAYOUT.bratwurms,
        )

    @classmethod
    def at(
        cls,
        players: list[str],
        extras: Mapping[str, Sequence[int]] | None,
        specialists: Mapping[Specialist, Place] | None,
        bratwurms: Mapping[str, int] | None,
        supply: int | None,
        weasel_used: bool,
    ) -> ExtrawurmState:
        """The state of Game.from_position, defaults filled in (Game checks it after)."""
        expansion = cls.setup(players)
        for name, given in (("extra tiles", extras), ("Bratwurms", bratwurms)):
            unknown = set(given or {}).difference(players)
            if unknown:
                raise InvalidState(f"{sorted(unknown)[0]!r} holds {name} but is not seated")
        for player, tiles in (extras or {}).items():
            expansion.extras[player] = list(tiles)
        expansion.specialists.update(specialists or {})
        expansion.bratwurms.update(bratwurms or {})
        held = sum(expansion.bratwurms.values())
        expansion.supply = expansion.supply - held if supply is None else supply
        expansion.weasel_used = weasel_used
        return expansion

    def copy(self) -> ExtrawurmState:
        return ExtrawurmState(
            {player: list(extras) for player, extras in self.extras.items()},
            dict(self.specialists),
            dict(self.bratwurms),
            self.supply,
            self.weasel_used,
        )

    def held_by(self, player: str) -> Specialist | None:
        """The specialist `player` holds, if any (a player holds at most one)."""
        for specialist, place in self.specialists.items():
            if place == player:
                return specialist
        return None

    def holds(self, player: str, specialist: Specialist) -> bool:
        return self.specialists.get(specialist) == player

    def on_tile(self, tile: int) -> Specialist | None:
        """The specialist sitting on grill tile `tile`, if any."""
        for specialist, place in self.specialists.items():
            if place == tile and type(place) is int:
                return specialist
        return None

    def free_tile(self, grill: Sequence[int]) -> int | None:
        """Where a specialist goes back: the lowest face-up grill tile with none on it."""
        occupied = {place for place in self.specialists.values() if type(place) is int}
        return next((tile for tile in grill if tile not in occupied), None)

    def richest_other(self, taker: str, seats: Sequence[str]) -> str | None:
        """The other player holding most Bratwurms, the first after `taker` in seat order
        among equals; None when no other player holds one (RULES.md, the Raven)."""
        start = seats.index(taker)
        others = [seats[(start + step) % len(seats)] for step in range(1, len(seats))]
        richest = max(others, key=lambda player: self.bratwurms[player], default=None)
        if richest is None or self.bratwurms[richest] == 0:
            return None
        return richest  # max() keeps the first of equals, and `others` is in seat order

    def total_bratwurms(self) -> int:
        return self.supply + sum(self.bratwurms.values())
