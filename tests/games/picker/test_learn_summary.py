"""A Picker practice game's end summary says what happened: the rules the learner met
(the Picker, the colour bonus), each one they did not with its rule, and a game that
stopped early as stopped, not as the computer's win."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.picker.engine import Colour, Game, Pick, RollDice, event_to_dict
from bot.games.picker.learn.coaching import summary
from bot.games.picker.render.coaching import worded
from bot.i18n import t
from tests.games.picker.helpers import seats

ANNE = "anne"
DICE = (1, 5, 6)  # red is the round's lowest number every round


def play(choose: Callable[[Game], Colour], rounds: int | None = None) -> tuple[Game, list[Any]]:
    """A game of three, every die kept as `choose` says, the dice always `DICE`; after
    `rounds` rounds, abandoned."""
    game = Game(seats(3), first=0)
    events: list[Any] = []
    while not game.is_over:
        if rounds is not None and game.round >= rounds:
            events += game.abandon()
            break
        if game.legal_actions().can_roll:
            events += game.apply(RollDice(DICE))
        else:
            events += game.apply(Pick(choose(game)))
    return game, [event_to_dict(event) for event in events]


def lowest_first(game: Game) -> Colour:
    return game.available()[0]


def anne_never_lowest(game: Game) -> Colour:
    available = game.available()
    return available[-1] if game.current_player == ANNE else available[0]


def keys(game: Game, events: list[dict[str, Any]]) -> list[str]:
    line = summary(game, ANNE, events)
    return [line.key, *(more.key for more in line.more)]


def test_a_learner_who_was_the_picker_and_earned_a_bonus_knows_the_rules() -> None:
    game, events = play(lowest_first)
    result, *rest = keys(game, events)
    assert result in {f"picker.learn.summary.{end}" for end in ("won", "shared", "lost")}
    assert rest == ["picker.learn.summary.all"]


def test_a_learner_never_the_picker_is_told_so_with_the_rule() -> None:
    game, events = play(anne_never_lowest)  # every 6 is hers: a win, and a bonus
    assert keys(game, events) == ["picker.learn.summary.won", "picker.learn.summary.no_picker"]


def test_a_game_stopped_early_is_not_the_computers_win_and_claims_no_bonus() -> None:
    game, events = play(anne_never_lowest, rounds=1)
    assert keys(game, events) == [
        "picker.learn.summary.stopped",
        "picker.learn.summary.no_picker",
        "picker.learn.summary.no_bonus",
    ]


def test_the_summary_reads_as_one_line() -> None:
    game, events = play(anne_never_lowest, rounds=1)

    class Seated:
        def name_of(self, player: str) -> str:
            return player

    text = worded(Seated(), summary(game, ANNE, events))  # type: ignore[arg-type]
    assert text == " ".join(
        t(f"picker.learn.summary.{key}") for key in ("stopped", "no_picker", "no_bonus")
    )
