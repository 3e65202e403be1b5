"""Tile odds: the best chance of ending a turn at or on each tile value.

For each tile value T from 21 to 36 and the dice kept so far, `at_least[T]` is the
highest chance, over all ways to play the rest of the turn, of ending it with a sum
of at least T and a worm kept; `exactly[T]` is the same for a sum of exactly T (what
a steal needs). These are pure dice odds: stopping is allowed whenever the target
is met, whatever lies on the grill.

    python -m bot.games.pickomino.ai.odds [--kept FACES] [--grill TILES] [--top TILE]

prints them as JSON with the expected change of worms under best play in that
position ("expected_worms"); FACES like W,W,5; TILES like 21-36 or 22,25,30.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import NoReturn

from bot.games.pickomino.ai.position import Position
from bot.games.pickomino.ai.solver import TurnValues, solve_position
from bot.games.pickomino.ai.states import MAX_TOTAL, TurnState
from bot.games.pickomino.engine.dice import DICE_COUNT, Face
from bot.games.pickomino.engine.tiles import ALL_TILES, HIGHEST_TILE, LOWEST_TILE

DECIMALS = 6  # in the command's output


@dataclass(frozen=True, slots=True)
class TileOdds:
    """Best chances of ending the turn with a worm and a sum >= T, or == T."""

    at_least: dict[int, float]
    exactly: dict[int, float]


def tile_odds(kept: Sequence[Face] = ()) -> TileOdds:
    """The best chances for each tile value, with `kept` dice kept so far."""
    state = TurnState.from_kept(kept)
    return TileOdds(
        at_least={tile: _target_values(tile, exact=False).value(state) for tile in ALL_TILES},
        exactly={tile: _target_values(tile, exact=True).value(state) for tile in ALL_TILES},
    )


@cache
def _target_values(tile: int, *, exact: bool) -> TurnValues:
    """The turn solved for reward 1 on reaching the target and 0 on anything else."""
    rewards = tuple(
        1.0 if (total == tile if exact else total >= tile) else None
        for total in range(MAX_TOTAL + 1)
    )
    return TurnValues(rewards, fail=0.0)


# ------------------------------------------------------------------ command line


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def parse_faces(text: str) -> tuple[Face, ...]:
    """'W,W,5' -> (WORM, WORM, FIVE); an empty text is no face."""
    faces = tuple(Face.parse(part) for part in text.split(",") if part.strip())
    if len(faces) > DICE_COUNT:
        raise ValueError(f"at most {DICE_COUNT} dice can be kept, not {len(faces)}")
    return faces


def parse_tiles(text: str) -> tuple[int, ...]:
    """'21-24,30' -> (21, 22, 23, 24, 30): tile values and ranges, comma-separated."""
    tiles: set[int] = set()
    for part in filter(None, (part.strip() for part in text.split(","))):
        low, dash, high = part.partition("-")
        first = parse_tile(low)
        last = parse_tile(high) if dash else first
        if last < first:
            raise ValueError(f"{part!r} is not a range from low to high")
        tiles.update(range(first, last + 1))
    return tuple(sorted(tiles))


def parse_tile(text: str) -> int:
    """One tile value, 21 to 36."""
    text = text.strip()
    if not text.isdigit() or not LOWEST_TILE <= int(text) <= HIGHEST_TILE:
        raise ValueError(f"{text!r} is not a tile ({LOWEST_TILE} to {HIGHEST_TILE})")
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(
        prog="python -m bot.games.pickomino.ai.odds",
        description="Best odds of reaching each tile value this turn, as JSON.",
    )
    parser.add_argument("--kept", default="", help="faces kept so far, like W,W,5")
    parser.add_argument("--grill", help="face-up grill tiles, like 21-36 or 22,25,30")
    parser.add_argument("--top", help="your own top tile, lost on a failure")
    args = parser.parse_args(argv)
    try:
        kept = parse_faces(args.kept)
        top = parse_tile(args.top) if args.top is not None else None
        if args.grill is None:
            grill = tuple(tile for tile in ALL_TILES if tile != top)
        else:
            grill = parse_tiles(args.grill)
        if top is not None and top in grill:
            raise ValueError(f"tile {top} cannot be on the grill and on your stack")
    except ValueError as error:
        parser.error(str(error))
    odds = tile_odds(kept)
    expected = solve_position(Position(grill, top)).value(TurnState.from_kept(kept))
    report = {
        "at_least": {str(tile): round(p, DECIMALS) for tile, p in odds.at_least.items()},
        "exactly": {str(tile): round(p, DECIMALS) for tile, p in odds.exactly.items()},
        "expected_worms": round(expected, DECIMALS),
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
