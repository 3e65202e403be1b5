"""The coaching line of a Picker practice game: what the learner may do now and the
rule behind it, or, while a computer player keeps, what the last keeps showed. Pure:
the game, the learner and the recent events in; a catalog key (under `picker.learn.`)
and its parameters out, worded by the renderer."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.games.picker.engine import Game, Standing


@dataclass(frozen=True, slots=True)
class Coaching:
    """A coaching line: its key and parameters (players as ids, colours as Colours), and
    the sentences that follow it on its line."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    more: tuple[Coaching, ...] = ()


def coaching(game: Game, learner: str, log: list[dict[str, Any]]) -> Coaching | None:
    """The line for the game as it stands (None once it is over)."""
    if game.is_over or game.dice is None or learner not in game.players:
        return None
    told = _what_happened(game, learner, log)
    if game.current_player != learner:
        return told or Coaching("picker.learn.watch", {"player": game.current_player})
    if not game.kept[learner]:
        return Coaching("picker.learn.keep", {"value": game.lowest})
    if told is not None and told.key == "picker.learn.reroll":
        return told
    available = game.available()
    again = [colour for colour in available if colour in game.colours_kept(learner)]
    if again:
        return Coaching("picker.learn.bonus", {"colour": again[0]})
    lowest_left = any(game.value_of(colour) == game.lowest for colour in available)
    if game.picker is None and lowest_left:
        return Coaching("picker.learn.picker", {"value": game.lowest})
    return told or Coaching("picker.learn.choose")


def _what_happened(game: Game, learner: str, log: list[dict[str, Any]]) -> Coaching | None:
    """This round's news worth a word: who became the Picker, or a roll done again."""
    for event in reversed(log):
        kind = event["type"]
        if kind == "round_over":
            return None  # the news of an earlier round
        if kind == "picker":
            if event["player"] == learner:
                return Coaching("picker.learn.you_picker", {"value": event["value"]})
            return Coaching(
                "picker.learn.other_picker", {"player": event["player"], "value": event["value"]}
            )
        if kind == "all_equal":
            return Coaching("picker.learn.reroll", {"value": event["value"]})
    return None


def summary(game: Game, learner: str, events: Iterable[dict[str, Any]]) -> Coaching:
    """The end of the practice game: won, shared, lost or stopped, then what the
    learner's keeps showed: all the rules, or each one they did not meet (never the
    Picker, no colour bonus) with the rule in a sentence."""
    standings = game.standings()
    mine = next((s for s in standings if s.player == learner), None)
    picker = any(e["type"] == "picker" and e.get("player") == learner for e in events)
    checks = {"no_picker": picker, "no_bonus": mine is not None and mine.bonus > 0}
    missed = [key for key, done in checks.items() if not done]
    more = tuple(Coaching(f"picker.learn.summary.{key}") for key in missed or ["all"])
    return Coaching(f"picker.learn.summary.{_result(game, mine, standings)}", more=more)


def _result(game: Game, mine: Standing | None, standings: tuple[Standing, ...]) -> str:
    if game.abandoned:
        return "stopped"
    if mine is None or mine.rank != 1:
        return "lost"
    return "shared" if sum(1 for s in standings if s.rank == 1) > 1 else "won"
