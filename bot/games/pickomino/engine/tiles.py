"""The tiles and the worms each one carries, and the components of each variant as data.

The base game's 16 tiles are 21 to 36. The Extrawurm expansion adds 11 and 13, which lie
beside a player's stack; everything that depends on which tiles exist reads a Layout.
"""

from __future__ import annotations

from dataclasses import dataclass

LOWEST_TILE = 21
HIGHEST_TILE = 36
ALL_TILES: tuple[int, ...] = tuple(range(LOWEST_TILE, HIGHEST_TILE + 1))
EXTRA_TILES: tuple[int, ...] = (11, 13)  # Extrawurm: one worm each, beside the stack


def worms(tile: int) -> int:
    """Worms on a tile: 21-24 one, 25-28 two, 29-32 three, 33-36 four; 11 and 13 one."""
    if tile in EXTRA_TILES:
        return 1
    if not LOWEST_TILE <= tile <= HIGHEST_TILE:
        raise ValueError(f"{tile} is not a tile (21 to 36)")
    return (tile - LOWEST_TILE) // 4 + 1


@dataclass(frozen=True, slots=True)
class Layout:
    """The components a variant is played with: which tiles, how many seats and dice."""

    stack_tiles: tuple[int, ...]  # tiles that go onto stacks; the game ends without them
    extra_tiles: tuple[int, ...]  # tiles that lie beside a stack (taken only exactly)
    min_players: int
    max_players: int
    dice: int  # dice a turn starts with
    bratwurms: int  # Bratwurm tokens in the supply at setup

    @property
    def all_tiles(self) -> tuple[int, ...]:
        """Every tile of the variant, ascending: the grill at setup."""
        return tuple(sorted((*self.extra_tiles, *self.stack_tiles)))


BASE_LAYOUT = Layout(ALL_TILES, (), min_players=2, max_players=7, dice=8, bratwurms=0)
EXTRAWURM_LAYOUT = Layout(ALL_TILES, EXTRA_TILES, min_players=2, max_players=7, dice=8, bratwurms=7)
