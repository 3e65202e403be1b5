"""Picker's review: every round's dice read back from its keeps, each keep judged by
Hard's chance to win (the look-ahead here: the suite never builds the exact tables)."""

from __future__ import annotations

import random

import pytest

from bot.games.picker.ai.players import Level
from bot.games.picker.ai.self_play import play_levels
from bot.games.picker.review import PickerReviewer
from bot.plugin.review import GameReview, ReviewFailed, ReviewSetup

REVIEWER = PickerReviewer()


def _reviewed(levels: list[Level], seed: int) -> GameReview:
    players, events = play_levels(levels, random.Random(seed), first=seed % len(levels))
    computers = {player: level.value for player, level in zip(players, levels, strict=True)}
    return REVIEWER.review(ReviewSetup(tuple(players), {}, computers=computers), events)


def test_every_keep_with_a_choice_is_judged_and_easy_keeps_less_than_hard():
    hard_total, easy_total = 0.0, 0.0
    for seed in range(3):
        review = _reviewed([Level.HARD, Level.NORMAL, Level.EASY], seed)
        hard, _, easy = review.players
        # 6 rounds, one keep each a round; the last die of a round is no choice.
        assert all(1 <= player.decisions <= 6 for player in review.players)
        assert sum(player.decisions for player in review.players) == 6 * 2
        assert all(player.rolls == 0 for player in review.players)  # no luck measured
        hard_total += hard.accuracy
        easy_total += easy.accuracy
    assert easy_total < hard_total


def test_a_costly_keep_is_drawn_with_its_dice():
    review = _reviewed([Level.EASY, Level.EASY, Level.EASY, Level.EASY], seed=1)
    costly = [decision for player in review.players for decision in player.costly]
    assert costly
    worst = max(costly, key=lambda decision: decision.cost)
    assert worst.position["did"] != worst.position["best"]
    text = REVIEWER.draw_decision(worst, lambda player: player)
    assert "Dice" in text and "best keep" in text
    assert GameReview.from_dict(review.to_dict()).to_dict() == review.to_dict()


def test_events_that_do_not_replay_are_refused():
    players, events = play_levels([Level.EASY] * 3, random.Random(4))
    setup = ReviewSetup(tuple(players), {})
    with pytest.raises(ReviewFailed):
        REVIEWER.review(setup, [event for event in events if event["type"] != "picked"][:5])
    with pytest.raises(ReviewFailed):
        REVIEWER.review(setup, events[: len(events) // 2])
    with pytest.raises(ReviewFailed):
        REVIEWER.review(ReviewSetup(("x", "y", "z"), {}), events)
