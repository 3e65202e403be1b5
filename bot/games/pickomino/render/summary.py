"""A finished game told from its stored events: each player's tiles, steals and busts,
the number of turns, the best steal, and everyone's worms after each turn (for the end
picture)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.games.pickomino.engine import worms

TURN_ENDS = frozenset({"took", "stole", "failed"})


@dataclass(slots=True)
class PlayerTally:
    taken: int = 0  # tiles taken from the grill
    steals: int = 0
    busts: int = 0
    worms_by_turn: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Steal:
    thief: str
    victim: str
    tile: int


@dataclass(slots=True)
class GameSummary:
    players: dict[str, PlayerTally]
    turns: int = 0
    best_steal: Steal | None = None

    @classmethod
    def from_events(cls, players: Iterable[str], events: Iterable[dict[str, Any]]) -> GameSummary:
        """Replay the stored events (the engine's `event_to_dict` form) in order."""
        summary = cls({player: PlayerTally() for player in players})
        stacks: dict[str, list[int]] = {player: [] for player in summary.players}
        for event in events:
            kind = event["type"]
            player = str(event.get("player", ""))
            tally = summary.players.get(player)
            if kind == "took" and tally is not None:
                tally.taken += 1
                stacks[player].append(event["tile"])
            elif kind == "stole" and tally is not None:
                tally.steals += 1
                victim = str(event["victim"])
                if stacks.get(victim):
                    stacks[victim].pop()
                stacks[player].append(event["tile"])
                summary._consider_steal(Steal(player, victim, event["tile"]))
            elif kind == "failed" and tally is not None:
                tally.busts += 1
                if event.get("returned") is not None and stacks[player]:
                    stacks[player].pop()
            elif kind == "left" and player in stacks:
                stacks[player] = []
            if kind in TURN_ENDS:
                summary.turns += 1
                for name, each in summary.players.items():
                    each.worms_by_turn.append(sum(worms(tile) for tile in stacks[name]))
        return summary

    def _consider_steal(self, steal: Steal) -> None:
        best = self.best_steal
        if (
            best is None
            or worms(steal.tile) > worms(best.tile)
            or (worms(steal.tile) == worms(best.tile) and steal.tile > best.tile)
        ):
            self.best_steal = steal
