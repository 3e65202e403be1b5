"""The 16 tiles, 21 to 36, and the worms each one carries."""

from __future__ import annotations

LOWEST_TILE = 21
HIGHEST_TILE = 36
ALL_TILES: tuple[int, ...] = tuple(range(LOWEST_TILE, HIGHEST_TILE + 1))


def worms(tile: int) -> int:
    """Worms on a tile: 21-24 one, 25-28 two, 29-32 three, 33-36 four."""
    if not LOWEST_TILE <= tile <= HIGHEST_TILE:
        raise ValueError(f"{tile} is not a tile (21 to 36)")
    return (tile - LOWEST_TILE) // 4 + 1
