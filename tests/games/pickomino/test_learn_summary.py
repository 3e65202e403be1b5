"""A Pickomino practice game's end summary and bust line say what happened: the summary
counts the learner's own turns (a steal left or a bust not met is named with its rule,
a turn the clock ended is told apart), and the bust line gives the rule and the cost,
not the 💥 headline's facts again."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.pickomino.engine import Game
from bot.games.pickomino.learn.coaching import bust, summary
from bot.games.pickomino.learn.script import RULES
from bot.games.pickomino.render.coaching import worded
from bot.i18n import LOCALES, t, with_locale

ANNE, BOB = "anne", "bob"


def took(player: str, tile: int) -> dict[str, Any]:
    return {"type": "took", "player": player, "tile": tile, "total": tile}


def stole(player: str, victim: str, tile: int) -> dict[str, Any]:
    return {"type": "stole", "player": player, "victim": victim, "tile": tile}


def failed(
    player: str, reason: str = "no_new_face", returned: int | None = None, turned: int | None = None
) -> dict[str, Any]:
    return {"type": "failed", "player": player, "reason": reason, "returned": returned,
            "turned": turned}  # fmt: skip


def ended(anne: list[int], bob: list[int]) -> Game:
    """A game over (nothing left on the grill): Anne and Bob hold these tiles."""
    out = [tile for tile in range(21, 37) if tile not in (*anne, *bob)]
    stacks = {ANNE: anne, BOB: bob}
    return Game.from_position([ANNE, BOB], RULES, grill=(), face_down=out, stacks=stacks)


def said(game: Game, events: list[dict[str, Any]], language: str = "en") -> str:
    with with_locale(language):
        return worded(summary(game, ANNE, events), str)


def test_a_learner_who_took_stole_and_busted_is_told_they_know_the_rules() -> None:
    events = [took(ANNE, 25), took(BOB, 28), failed(ANNE, returned=25, turned=27),
              took(BOB, 24), stole(ANNE, BOB, 24)]  # fmt: skip
    line = summary(ended([24], [28]), ANNE, events)
    assert line.key == "pickomino.learn.summary.lost"
    assert [more.key for more in line.more] == ["pickomino.learn.summary.all"]


def test_a_steal_left_on_the_table_is_not_claimed_and_its_rule_is_told() -> None:
    events = [took(ANNE, 25), took(BOB, 28), failed(ANNE, returned=25, turned=27),
              took(BOB, 24), took(ANNE, 23), failed(BOB, returned=24, turned=26)]  # fmt: skip
    text = said(ended([23], [28]), events)
    assert text.startswith(t("pickomino.learn.summary.lost", "en"))
    assert t("pickomino.learn.summary.no_steal", "en") in text
    assert "stole" not in text.replace("stole no tile", "")
    assert t("pickomino.learn.summary.all", "en") not in text


def test_turns_the_clock_ended_are_told_apart_from_busts() -> None:
    events = [took(ANNE, 25), failed(ANNE, "timeout", returned=25), failed(ANNE, "timeout"),
              took(ANNE, 26)]  # fmt: skip
    line = summary(ended([26], []), ANNE, events)
    assert line.key == "pickomino.learn.summary.won"
    assert [more.key for more in line.more] == [
        "pickomino.learn.summary.no_steal",
        "pickomino.learn.summary.no_bust",
        "pickomino.learn.summary.timeouts",
    ]
    assert t("pickomino.learn.summary.timeouts", "en", count=2) in said(ended([26], []), events)
    polish = said(ended([26], []), events, "pl")
    assert t("pickomino.learn.summary.timeouts", "pl", count=2).startswith("2 twoje tury")
    assert "2 twoje tury" in polish


def test_a_shared_win_and_a_stopped_game() -> None:
    assert summary(ended([], []), ANNE, []).key == "pickomino.learn.summary.shared"
    stopped = ended([21], [])
    stopped.abandoned = True
    line = summary(stopped, ANNE, [took(ANNE, 21)])
    assert line.key == "pickomino.learn.summary.stopped"
    assert "pickomino.learn.summary.all" not in [more.key for more in line.more]


@pytest.mark.parametrize(
    ("returned", "turned", "cost"),
    [(25, 27, "both"), (28, None, "returned"), (None, 28, "turned"), (None, None, "none")],
)
def test_the_bust_line_says_the_rule_and_what_a_bust_costs(
    returned: int | None, turned: int | None, cost: str
) -> None:
    line = bust(failed(ANNE, "no_worm", returned, turned))
    assert line.key == "pickomino.learn.bust.no_worm"
    assert [more.key for more in line.more] == [f"pickomino.learn.bust.cost.{cost}"]
    for language in LOCALES:
        with with_locale(language):
            text = worded(line, str)
        # The headline's facts (the tiles, "back to the grill") are not repeated.
        assert t("pickomino.log.failed.returned", language, tile=25) not in text
        assert "25" not in text and "27" not in text


@pytest.mark.parametrize("reason", ["no_new_face", "no_worm", "no_tile", "timeout"])
def test_every_reason_has_its_rule(reason: str) -> None:
    for language in LOCALES:
        assert t(f"pickomino.learn.bust.{reason}", language).startswith("🎓")
