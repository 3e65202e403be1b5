"""The coaching line of a practice game: what the learner may do now and the rule
behind it, or, while the computer player moves, what the learner's last turn showed.
Pure: the game, the learner and the recent events in; a catalog key (under
`pickomino.learn.`) and its parameters out, worded by the renderer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.games.pickomino.engine import ClaimOption, Face, Game, Phase, Source
from bot.games.pickomino.engine.claims import best_claim
from bot.games.pickomino.engine.events import FailReason

TURN_ENDS = frozenset({"took", "stole", "failed"})


@dataclass(frozen=True, slots=True)
class Coaching:
    """A coaching line: its key and parameters (players as ids, faces as Faces), and the
    sentences that follow it on its line."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    more: tuple[Coaching, ...] = ()


def coaching(game: Game, learner: str, log: list[dict[str, Any]]) -> Coaching | None:
    """The line for the game as it stands (None once it is over)."""
    if game.is_over or learner not in game.players:
        return None
    if game.current_player != learner:
        return _watching(game, learner, log)
    if game.phase is Phase.KEEP:
        return _keeping(game)
    if game.phase is Phase.CLAIM:
        return _claiming(game)
    if game.kept:
        return _rolling_on(game)
    return _turn_start(game, learner)


def _turn_start(game: Game, learner: str) -> Coaching:
    if game.turn_number == 1:
        return Coaching("pickomino.learn.start", {"low": min(game.grill), "high": max(game.grill)})
    tops = [
        (tile, player)
        for player in game.players
        if player != learner and (tile := game.top_tile(player)) is not None
    ]
    if tops:
        tile, player = max(tops)
        return Coaching("pickomino.learn.steal_aim", {"player": player, "tile": tile})
    return Coaching("pickomino.learn.roll")


def _keeping(game: Game) -> Coaching:
    if not game.kept:
        return Coaching("pickomino.learn.keep.first")
    faces = tuple(game.keepable_faces())
    return Coaching("pickomino.learn.keep.more", {"faces": faces})


def _rolling_on(game: Game) -> Coaching:
    total = game.kept_total
    options = game.claim_options()
    steal = _first_steal(options)
    if steal is not None:
        return Coaching("pickomino.learn.stop.steal", {"player": steal.victim, "tile": steal.tile})
    if options:
        tile = best_claim(options).tile
        return Coaching("pickomino.learn.stop", {"total": total, "tile": tile})
    if Face.WORM not in game.kept:
        return Coaching("pickomino.learn.need_worm")
    return Coaching("pickomino.learn.need_more", {"total": total})


def _claiming(game: Game) -> Coaching:
    options = game.claim_options()
    steal = _first_steal(options)
    if steal is not None:
        return Coaching("pickomino.learn.claim.steal", {"player": steal.victim, "tile": steal.tile})
    tile = best_claim(options).tile if options else game.kept_total
    return Coaching("pickomino.learn.claim", {"total": game.kept_total, "tile": tile})


def _first_steal(options: Iterable[ClaimOption]) -> ClaimOption | None:
    """The steal among the claims, if any: the lesson a steal teaches comes first."""
    return next((option for option in options if option.source is Source.STEAL), None)


def _watching(game: Game, learner: str, log: list[dict[str, Any]]) -> Coaching:
    """While the computer player moves: what the learner's last turn ended with."""
    mover = game.current_player
    for event in reversed(log):
        if event["type"] not in TURN_ENDS:
            continue
        if event.get("player") != learner:
            break  # turns alternate: the last one ended was the computer's own
        if event["type"] == "failed":
            return bust(event)
        if event["type"] == "stole":
            return Coaching("pickomino.learn.stole", {"tile": event["tile"]})
        return Coaching("pickomino.learn.took", {"tile": event["tile"]})
    return Coaching("pickomino.learn.watch", {"player": mover})


def bust(event: dict[str, Any]) -> Coaching:
    """The rule behind a bust of the learner's (the 💥 headline tells what happened): why
    the turn was lost, and what a bust costs."""
    returned, turned = event.get("returned") is not None, event.get("turned") is not None
    cost = {
        (True, True): "both",
        (True, False): "returned",
        (False, True): "turned",
        (False, False): "none",
    }[returned, turned]
    why = f"pickomino.learn.bust.{event['reason']}"
    return Coaching(why, more=(Coaching(f"pickomino.learn.bust.cost.{cost}"),))


@dataclass(frozen=True, slots=True)
class Lessons:
    """What the learner's own turns did in a practice game, from its events."""

    took: int = 0
    stole: int = 0
    busts: int = 0  # lost by a roll or a total (a bust the learner saw happen)
    timeouts: int = 0  # lost to the clock

    @classmethod
    def of(cls, learner: str, events: Iterable[dict[str, Any]]) -> Lessons:
        counts = Counter(
            "timeouts" if event.get("reason") == FailReason.TIMEOUT else KINDS[event["type"]]
            for event in events
            if event.get("player") == learner and event["type"] in KINDS
        )
        return cls(**counts)


KINDS = {"took": "took", "stole": "stole", "failed": "busts"}


def summary(game: Game, learner: str, events: Iterable[dict[str, Any]]) -> Coaching:
    """The end of the practice game: won, shared, lost or stopped, then what the
    learner's turns showed: all the rules, or each one they did not meet (a steal left,
    no bust) with the rule in a sentence, and the turns the clock ended."""
    lessons = Lessons.of(learner, events)
    checks = {"no_take": lessons.took, "no_steal": lessons.stole, "no_bust": lessons.busts}
    missed = [key for key, done in checks.items() if not done]
    more = [Coaching(f"pickomino.learn.summary.{key}") for key in missed or ["all"]]
    if lessons.timeouts:
        more.append(Coaching("pickomino.learn.summary.timeouts", {"count": lessons.timeouts}))
    return Coaching(f"pickomino.learn.summary.{_result(game, learner)}", more=tuple(more))


def _result(game: Game, learner: str) -> str:
    if game.abandoned:
        return "stopped"
    standings = game.standings()
    mine = next((s for s in standings if s.player == learner), None)
    if mine is None or mine.rank != 1:
        return "lost"
    return "shared" if sum(1 for s in standings if s.rank == 1) > 1 else "won"
