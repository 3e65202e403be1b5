"""A finished game's review, as every game gives it (`GamePlugin.reviewer`).

A game's `Reviewer` replays the game's stored events from its start and judges every
decision by the engine's own best play; the platform stores the `GameReview` it returns
(as `to_dict`, JSON) and shows it, drawing each costly decision through the game again.

Figures, the same for every game (win chances are between 0 and 1):
- a decision is a choice with at least two options open; `best` is the win chance of
  the best option (the game's strongest evaluation), `chosen` that of the option taken;
  a game whose strongest player plays for its place too (`GameReview.places`) gives
  that player's value instead, a blend of the chance to win and the finishing order;
- **accuracy** = sum of `chosen` / sum of `best` over a player's decisions: the share of
  the winning chances open to them that their choices kept (1.0 with no decision, or
  when every option was worth nothing);
- **cost** of a decision = `best - chosen`; a player's three costliest are kept, each
  with the game's own drawing of the position (`CostlyDecision.position`);
- **luck** = the mean, over a player's rolls, of the win chance the dice gave (the best
  play's value after the roll) minus what rolling was worth before it (its expected
  value): positive when their dice beat what the same choices roll on average. Its sum
  (`PlayerReview.luck`) is stored with the number of rolls; shown per roll, since a
  game's sum of swings grows with its length (it is no chance, and passes 100 points).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.render.names import Namer
from bot.sessions.adapter import GameEvent

COSTLY_KEPT = 3  # the costliest decisions kept per player
MIN_COST = 0.0005  # a decision costing less than this is not worth showing


@dataclass(frozen=True, slots=True)
class CostlyDecision:
    cost: float  # the win chance it lost: best - chosen
    turn: int  # the game's turn number (from 1)
    position: dict[str, Any]  # the game's own JSON: the position, what was done, what was best

    def to_dict(self) -> dict[str, Any]:
        return {"cost": round(self.cost, 5), "turn": self.turn, "position": self.position}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CostlyDecision:
        return cls(float(data["cost"]), int(data["turn"]), dict(data["position"]))


@dataclass(slots=True)
class PlayerReview:
    player: str  # the engine's player id
    decisions: int = 0  # choices with at least two options
    chosen: float = 0.0  # the sum of the chosen options' win chances
    best: float = 0.0  # the sum of the best options' win chances
    luck: float = 0.0  # the sum over rolls of (value after the roll - value of rolling)
    rolls: int = 0

    @property
    def luck_per_roll(self) -> float:
        """How much each roll gave beyond what rolling was worth, on average."""
        return self.luck / self.rolls if self.rolls else 0.0

    costly: list[CostlyDecision] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        """The share of the winning chances open to the player that their choices kept."""
        if self.best <= 0.0:
            return 1.0
        return min(1.0, self.chosen / self.best)

    def judge(self, best: float, chosen: float, turn: int, position: dict[str, Any]) -> None:
        """Count one decision; keep it if it is among the costliest so far."""
        self.decisions += 1
        self.best += best
        self.chosen += chosen
        cost = best - chosen
        if cost < MIN_COST:
            return
        self.costly.append(CostlyDecision(cost, turn, position))
        self.costly.sort(key=lambda decision: -decision.cost)
        del self.costly[COSTLY_KEPT:]

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "decisions": self.decisions,
            "chosen": round(self.chosen, 5),
            "best": round(self.best, 5),
            "luck": round(self.luck, 5),
            "rolls": self.rolls,
            "costly": [decision.to_dict() for decision in self.costly],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlayerReview:
        return cls(
            player=str(data["player"]),
            decisions=int(data["decisions"]),
            chosen=float(data["chosen"]),
            best=float(data["best"]),
            luck=float(data["luck"]),
            rolls=int(data["rolls"]),
            costly=[CostlyDecision.from_dict(item) for item in data["costly"]],
        )


REVIEW_SCHEMA = 1


@dataclass(frozen=True, slots=True)
class GameReview:
    """Every player's review, in seat order, and the names they played under."""

    players: tuple[PlayerReview, ...]
    names: Mapping[str, str] = field(default_factory=dict)  # player id -> name at the end
    bots: frozenset[str] = frozenset()  # the players a computer played
    # The values count the finishing order too, not the win alone (the strongest
    # computer's values at a bigger table): the review says so.
    places: bool = False

    def of(self, player: str) -> PlayerReview | None:
        return next((review for review in self.players if review.player == player), None)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "schema": REVIEW_SCHEMA,
            "players": [review.to_dict() for review in self.players],
            "names": dict(self.names),
            "bots": sorted(self.bots),
        }
        if self.places:  # left out otherwise: a review kept before reads the same
            data["places"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameReview:
        return cls(
            players=tuple(PlayerReview.from_dict(item) for item in data["players"]),
            names={str(key): str(value) for key, value in data.get("names", {}).items()},
            bots=frozenset(str(player) for player in data.get("bots", ())),
            places=bool(data.get("places", False)),
        )


@dataclass(frozen=True, slots=True)
class ReviewSetup:
    """What a game's start was made of, as the session knows it at the end."""

    players: tuple[str, ...]  # seat order, as the session started the game
    options: Mapping[str, Any]  # the rule options
    practice: bool = False  # a practice game: it started from the tutorial's position
    # The level of every seat a computer played, by player id ("" for a seat kept for a
    # person who left): a game's strongest player may judge against their known rule.
    computers: Mapping[str, str] = field(default_factory=dict)


class ReviewFailed(Exception):
    """The events do not replay into a game (a bug, or events of another release)."""


class Reviewer(Protocol):
    """How a game reviews its finished games (pure: no Discord, no I/O) and draws the
    positions of their costly decisions."""

    def review(self, setup: ReviewSetup, events: Sequence[GameEvent]) -> GameReview:
        """Replay `events` from the start of the game `setup` describes; raise
        ReviewFailed if they do not replay. Names and bots are the platform's to fill in."""
        ...

    def draw_decision(self, decision: CostlyDecision, name_of: Namer) -> str:
        """One costly decision in the language in force: the position (dice, kept, the
        table), what was done, what was best; a few short lines."""
        ...

    def choice_words(self, decision: CostlyDecision, name_of: Namer) -> tuple[str, str]:
        """What was done and what was best, each a few words that fit in a sentence."""
        ...
