"""A finished game told from its stored events: each player's tiles, steals and busts,
the number of turns, the best steal, and everyone's score after each turn (for the end
picture: the score the game counts, so with Extrawurm the 11 and 13 and the Bratwurms)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.games.pickomino.engine import worms
from bot.games.pickomino.holdings import Holding, replay

TURN_ENDS = frozenset({"took", "stole", "failed", "hen_stolen"})
# After a turn's end its last events may still change a score (the Raven's Bratwurm):
# a turn's scores are read when the next turn starts, or when the events end.
NEXT_TURN = frozenset({"rolled", "game_over"})


@dataclass(slots=True)
class PlayerTally:
    taken: int = 0  # tiles taken from the grill
    steals: int = 0
    busts: int = 0
    score_by_turn: list[int] = field(default_factory=list)


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
        held = {player: Holding() for player in summary.players}
        unread = False  # a turn has ended whose scores are not read yet
        for event in events:
            kind = event["type"]
            if unread and kind in NEXT_TURN:
                summary._read_scores(held)
                unread = False
            summary._count(event, held)
            if kind in TURN_ENDS:
                summary.turns += 1
                unread = True
        if unread:
            summary._read_scores(held)
        return summary

    def _count(self, event: dict[str, Any], held: dict[str, Holding]) -> None:
        kind = event["type"]
        tally = self.players.get(str(event.get("player", "")))
        if tally is not None:
            if kind == "took":
                tally.taken += 1
            elif kind in ("stole", "hen_stolen"):
                tally.steals += 1
            elif kind == "failed":
                tally.busts += 1
            if kind == "stole":
                thief, victim = str(event["player"]), str(event["victim"])
                self._consider_steal(Steal(thief, victim, event["tile"]))
        replay(event, held)

    def _read_scores(self, held: dict[str, Holding]) -> None:
        for player, tally in self.players.items():
            tally.score_by_turn.append(held[player].score)

    def _consider_steal(self, steal: Steal) -> None:
        best = self.best_steal
        if (
            best is None
            or worms(steal.tile) > worms(best.tile)
            or (worms(steal.tile) == worms(best.tile) and steal.tile > best.tile)
        ):
            self.best_steal = steal
