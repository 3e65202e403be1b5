"""The coaching line of a practice game: what the learner may do now and the rule
behind it, or, while the computer player moves, what the learner's last turn showed.
Pure: the game, the learner and the recent events in; a catalog key (under
`pickomino.learn.`) and its parameters out, worded by the renderer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.pickomino.engine import Face, Game, Phase, Source
from bot.games.pickomino.engine.claims import best_claim

TURN_ENDS = frozenset({"took", "stole", "failed"})


@dataclass(frozen=True, slots=True)
class Coaching:
    """A coaching line: its key and parameters (players as ids, faces as Faces)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


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
    steals = [option for option in options if option.source is Source.STEAL]
    if steals:
        steal = steals[0]
        return Coaching("pickomino.learn.stop.steal", {"player": steal.victim, "tile": steal.tile})
    if options:
        tile = best_claim(options).tile
        return Coaching("pickomino.learn.stop", {"total": total, "tile": tile})
    if Face.WORM not in game.kept:
        return Coaching("pickomino.learn.need_worm")
    return Coaching("pickomino.learn.need_more", {"total": total})


def _claiming(game: Game) -> Coaching:
    options = game.claim_options()
    steals = [option for option in options if option.source is Source.STEAL]
    if steals:
        steal = steals[0]
        return Coaching("pickomino.learn.claim.steal", {"player": steal.victim, "tile": steal.tile})
    tile = best_claim(options).tile if options else game.kept_total
    return Coaching("pickomino.learn.claim", {"total": game.kept_total, "tile": tile})


def _watching(game: Game, learner: str, log: list[dict[str, Any]]) -> Coaching:
    """While the computer player moves: what the learner's last turn ended with."""
    mover = game.current_player
    for event in reversed(log):
        if event["type"] not in TURN_ENDS:
            continue
        if event.get("player") != learner:
            break  # turns alternate: the last one ended was the computer's own
        if event["type"] == "failed":
            key = "pickomino.learn.bust" if event.get("returned") else "pickomino.learn.bust.empty"
            return Coaching(key)
        if event["type"] == "stole":
            return Coaching("pickomino.learn.stole", {"tile": event["tile"]})
        return Coaching("pickomino.learn.took", {"tile": event["tile"]})
    return Coaching("pickomino.learn.watch", {"player": mover})


def summary(game: Game, learner: str) -> Coaching:
    """The end of the practice game: won, shared or lost, and what it showed."""
    standings = game.standings()
    mine = next((s for s in standings if s.player == learner), None)
    winners = [s for s in standings if s.rank == 1]
    if mine is not None and mine.rank == 1:
        won = "shared" if len(winners) > 1 else "won"
        return Coaching(f"pickomino.learn.summary.{won}")
    return Coaching("pickomino.learn.summary.lost")
