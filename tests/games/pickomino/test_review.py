"""Pickomino's review: the replay of stored events, and the figures it gives."""

from __future__ import annotations

import random

import pytest

from bot.games.pickomino.ai.players import Level
from bot.games.pickomino.ai.self_play import play_levels
from bot.games.pickomino.engine import Rules
from bot.games.pickomino.plugin import PICKOMINO
from bot.games.pickomino.review import PickominoReviewer
from bot.i18n import t
from bot.plugin.review import COSTLY_KEPT, GameReview, ReviewFailed, ReviewSetup
from bot.plugin.review_message import review_message
from bot.render.layout import Text

REVIEWER = PickominoReviewer()


def _reviewed(levels: list[Level], seed: int, extrawurm: bool = False) -> GameReview:
    rules = Rules(extrawurm=extrawurm)
    players, events = play_levels(levels, random.Random(seed), rules, first=seed % len(levels))
    return REVIEWER.review(ReviewSetup(tuple(players), rules.to_dict()), events)


@pytest.mark.parametrize("extrawurm", [False, True])
def test_hard_keeps_every_chance_and_easy_loses_some(extrawurm: bool) -> None:
    review = _reviewed([Level.HARD, Level.EASY], seed=4, extrawurm=extrawurm)
    hard, easy = review.players
    assert hard.decisions > 10 and easy.decisions > 10
    assert hard.accuracy > 0.999
    assert hard.costly == []
    assert easy.accuracy < hard.accuracy
    assert 1 <= len(easy.costly) <= COSTLY_KEPT
    costs = [decision.cost for decision in easy.costly]
    assert costs == sorted(costs, reverse=True)
    worst = easy.costly[0]
    assert worst.position["did"] != worst.position["best"]
    assert worst.position["phase"] in ("roll", "keep", "claim", "no_new_face")


def test_a_review_survives_its_json() -> None:
    review = _reviewed([Level.NORMAL, Level.EASY, Level.HARD], seed=2)
    again = GameReview.from_dict(review.to_dict())
    assert again.to_dict() == review.to_dict()
    assert [player.player for player in again.players] == ["p0", "p1", "p2"]


def test_luck_averages_out_over_many_rolls() -> None:
    # Luck is the value after a roll minus the roll's expected value: over many rolls
    # of many games its mean per roll is near zero, for every level.
    total, rolls = 0.0, 0
    for seed in range(6):
        for player in _reviewed([Level.NORMAL, Level.NORMAL], seed=seed).players:
            total += player.luck
            rolls += player.rolls
    assert rolls > 300
    assert abs(total / rolls) < 0.01


def test_events_that_do_not_replay_are_refused() -> None:
    players, events = play_levels([Level.EASY, Level.EASY], random.Random(1))
    broken = [event for event in events if event["type"] != "kept"]
    with pytest.raises(ReviewFailed):
        REVIEWER.review(ReviewSetup(tuple(players), {}), broken)
    with pytest.raises(ReviewFailed):
        REVIEWER.review(ReviewSetup(tuple(players), {}), [])
    with pytest.raises(ReviewFailed):
        REVIEWER.review(ReviewSetup(("x", "y"), {}), events)


def test_a_review_of_three_or_more_players_says_places_count_too() -> None:
    # Hard plays for its place too at three or more players (ai/outlook.py), so the
    # values judged are that blend and the review says so; two players: the win alone.
    three = _reviewed([Level.NORMAL, Level.EASY, Level.HARD], seed=2)
    two = _reviewed([Level.HARD, Level.EASY], seed=4)
    assert three.places and not two.places
    assert GameReview.from_dict(three.to_dict()).places
    assert "places" not in two.to_dict()  # as a review kept before reads
    about = {
        review.places: review_message(review, PICKOMINO, 7, None).blocks[-1]
        for review in (three, two)
    }
    assert about[True] == Text(t("review.about.places"))
    assert about[False] == Text(t("review.about"))
