"""What each player holds, replayed from a game's stored events: their stack, their 11
or 13 (Extrawurm, beside the stack) and their Bratwurms.

The history (history.py) and the end picture (render/summary.py) both read a finished
game from its events; this is the one account of how each event moves tiles and tokens,
so the two cannot disagree about a score.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.pickomino.engine import worms
from bot.games.pickomino.engine.tiles import EXTRA_TILES


@dataclass(slots=True)
class Holding:
    stack: list[int] = field(default_factory=list)  # bottom first
    extras: list[int] = field(default_factory=list)  # Extrawurm's 11 or 13
    bratwurms: int = 0

    @property
    def tiles(self) -> list[int]:
        return [*self.stack, *self.extras]

    @property
    def score(self) -> int:
        """The score the game counts: worms on every tile, and the Bratwurms."""
        return sum(map(worms, self.tiles)) + self.bratwurms


def replay(event: dict[str, Any], held: dict[str, Holding]) -> None:
    """Move tiles and tokens as the stored `event` (the engine's event_to_dict form) did;
    events of players not in `held`, and events that move nothing, change nothing."""
    kind = event["type"]
    holding = held.get(str(event.get("player", "")))
    if holding is None:
        return
    if kind == "took":
        tile = event["tile"]
        (holding.extras if tile in EXTRA_TILES else holding.stack).append(tile)
    elif kind == "stole":
        victim = held.get(str(event["victim"]))
        if victim is not None and victim.stack:
            victim.stack.pop()
        holding.stack.append(event["tile"])
    elif kind == "failed":
        if event.get("returned") is not None and holding.stack:
            holding.stack.pop()  # the Hen's holder returns no tile: `returned` is None
    elif kind == "bratwurm":
        holding.bratwurms += 1
        source = held.get(str(event.get("source")))
        if source is not None:  # the Raven's token came from a player, not the supply
            source.bratwurms -= 1
    elif kind == "left":
        # The leaver's tiles go back to the grill, their Bratwurms to the supply.
        holding.stack.clear()
        holding.extras.clear()
        holding.bratwurms = 0
