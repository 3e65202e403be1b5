"""Computer players and hints: always legal, and each level plays as described."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from benchmarks.support.picker_opponents import greedy
from bot.games.picker.ai import HintReason, Level, decide, hint_for, timeout_pick
from bot.games.picker.ai.players import hard_choice, normal_choice
from bot.games.picker.engine import Colour, Game, Pick, RollDice
from tests.games.picker.helpers import pick_all, seats

RED, ORANGE, YELLOW, GREEN = Colour.RED, Colour.ORANGE, Colour.YELLOW, Colour.GREEN


def test_the_levels_have_the_shared_names() -> None:
    assert [level.value for level in Level] == ["easy", "normal", "hard"]


@pytest.mark.parametrize(
    ("level", "count"),
    [(level, count) for level in Level for count in (3, 5, 8) if (level, count) != ("hard", 8)],
)
def test_every_decision_is_legal(level: Level, count: int) -> None:
    rng = random.Random(count)
    game = Game(seats(count), first=count % 3)
    while not game.is_over:
        if game.legal_actions().can_roll:
            game.roll_with(rng)
            continue
        pick = decide(game, level, rng)
        assert pick.colour in game.available()
        game.apply(pick)
    with pytest.raises(ValueError):
        decide(game, level, rng)


def after_rounds(rounds: int) -> Game:
    """anne, bob and cara keep red, orange and yellow; anne keeps the 1 and so starts."""
    game = Game(seats(3))
    for _ in range(rounds):
        pick_all(game, [1, 3, 3], [RED, ORANGE, YELLOW])
    return game


def test_normal_keeps_the_highest_number() -> None:
    game = after_rounds(1)
    game.apply(RollDice((2, 6, 5)))
    assert decide(game, Level.NORMAL, random.Random(0)) == Pick(ORANGE)


def test_normal_breaks_a_tie_with_its_colour_set() -> None:
    game = after_rounds(1)  # anne kept red once
    game.apply(RollDice((5, 5, 2)))
    assert normal_choice(game) is RED
    game.apply(Pick(RED))
    assert normal_choice(game) is ORANGE  # bob kept orange


def test_normal_values_becoming_the_picker_a_bit() -> None:
    game = after_rounds(1)
    game.apply(RollDice((1, 2, 6)))
    game.apply(Pick(YELLOW))  # anne takes the 6; bob chooses between a 1 and a 2
    assert normal_choice(game) is RED  # the 1 makes bob keep first next round
    game = after_rounds(1)
    game.apply(RollDice((1, 4, 6)))
    game.apply(Pick(YELLOW))
    assert normal_choice(game) is ORANGE  # a 4 is worth more than keeping first


def test_timeout_keeps_normals_choice() -> None:
    game = after_rounds(2)
    game.apply(RollDice((3, 6, 4)))
    assert timeout_pick(game) == decide(game, Level.NORMAL, random.Random(1)) == Pick(ORANGE)


def test_easy_mostly_keeps_a_high_number_but_not_always() -> None:
    rng = random.Random(5)
    highest = 0
    for _ in range(300):
        game = Game(seats(4))
        game.roll_with(rng)
        assert game.dice is not None
        pick = decide(game, Level.EASY, rng)
        highest += game.value_of(pick.colour) == max(game.dice)
    assert 0.6 < highest / 300 < 0.95


@pytest.mark.parametrize("seed", range(5))
def test_hard_takes_an_obviously_dominant_die(seed: int) -> None:
    game = after_rounds(2)  # anne has kept red twice and keeps first
    game.apply(RollDice((6, 1, 2)))  # the red 6: the highest, and her colour
    assert decide(game, Level.HARD, random.Random(seed)) == Pick(RED)


Rule = Callable[[Game], Colour]


def greedy_rule(game: Game) -> Colour:
    return greedy(game, random.Random(0))


def final_outcome(game: Game, colour: Colour, rule: Rule = normal_choice) -> tuple[float, int]:
    """Keep `colour`, let players of `rule` finish the game; the keeper's share and margin."""
    trial = game.copy()
    me = trial.current_player
    trial.apply(Pick(colour))
    while not trial.is_over:
        trial.apply(Pick(rule(trial)))
    standings = {s.player: s for s in trial.standings()}
    winners = [s for s in standings.values() if s.rank == 1]
    share = 1 / len(winners) if standings[me].rank == 1 else 0.0
    best_other = max(s.score for s in standings.values() if s.player != me)
    return share, standings[me].score - best_other


@pytest.mark.parametrize(
    ("seed", "greedy_chance"), [(seed, c) for seed in range(20) for c in (0, 1)]
)
def test_hard_plays_the_last_round_exactly_against_the_rule_it_reads(
    seed: int, greedy_chance: float
) -> None:
    rng = random.Random(seed)
    count = 3 + seed % 3
    game = Game(seats(count), first=rng.randrange(count))
    while game.round < game.rounds_total - 1 or game.legal_actions().can_roll:
        if game.legal_actions().can_roll:
            game.roll_with(rng)
        else:
            game.apply(Pick(rng.choice(game.available())))
    rule = greedy_rule if greedy_chance else normal_choice
    for _ in range(rng.randrange(count)):
        game.apply(Pick(rule(game)))
    best = max(final_outcome(game, colour, rule) for colour in game.available())
    chosen = hard_choice(game, rng, chances=[greedy_chance] * count)
    assert final_outcome(game, chosen, rule) == best


def close_last_round() -> Game:
    """Before the last round: anne 26 (17 + yellow x4), bob 25 (16 + red x4), cara 26
    (14 + orange x5); anne keeps first from red 5, orange 6, yellow 3."""
    game = Game(seats(3))
    pick_all(game, [5, 2, 6], [YELLOW, RED, ORANGE])
    pick_all(game, [3, 3, 4], [ORANGE, YELLOW, RED])
    pick_all(game, [2, 2, 3], [ORANGE, YELLOW, RED])
    pick_all(game, [2, 5, 3], [ORANGE, RED, YELLOW])
    pick_all(game, [3, 2, 2], [YELLOW, RED, ORANGE])
    game.apply(RollDice((5, 6, 3)))
    return game


def test_hard_keeps_a_lower_die_when_its_bonus_and_denial_win() -> None:
    # The orange 6 (Normal's choice): anne 32, bob takes the red 5 and red x5: 33.
    # The red 5: anne 22 + 9 + 3 (red x2) = 34; bob takes the orange 6: 31. Anne wins.
    game = close_last_round()
    assert normal_choice(game) is ORANGE
    assert final_outcome(game, ORANGE) == (0.0, -1)
    assert final_outcome(game, RED) == (1.0, 3)
    assert decide(game, Level.HARD, random.Random(0)) == Pick(RED)


def test_a_level_may_be_given_by_its_name() -> None:
    game = close_last_round()
    assert decide(game, "hard", random.Random(0)) == Pick(RED)  # as Level.HARD above
    assert decide(game, "normal", random.Random(0)) == Pick(ORANGE)
    assert decide(game, "easy", random.Random(0)) == decide(game, Level.EASY, random.Random(0))


def test_an_unknown_level_is_refused_not_played_as_easy() -> None:
    game = close_last_round()
    with pytest.raises(ValueError, match=r"unknown level 'impossible': .*easy, normal, hard"):
        decide(game, "impossible", random.Random(0))


def test_the_hint_is_hards_choice_with_its_reason() -> None:
    game = close_last_round()
    hint = hint_for(game)
    assert (hint.player, hint.colour, hint.value) == ("anne", RED, 5)
    assert hint.reason is HintReason.COLOUR_SET and hint.kept_before == 1
    assert not hint.becomes_picker  # the last round: nothing follows
    assert hint.options[0].colour is RED
    assert [o.score for o in hint.options] == sorted((o.score for o in hint.options), reverse=True)
    assert hint_for(game) == hint  # the same position, the same hint


def test_the_hint_says_highest_for_a_dominant_die() -> None:
    game = after_rounds(2)
    game.apply(RollDice((6, 1, 2)))
    assert hint_for(game).reason is HintReason.HIGHEST


def test_no_hint_without_dice() -> None:
    with pytest.raises(ValueError):
        hint_for(Game(seats(3)))


@pytest.mark.parametrize("count", [3, 5])
def test_hard_decides_the_same_given_the_same_seed(count: int) -> None:
    rng = random.Random(count)
    game = Game(seats(count), first=1)
    decisions = []
    while not game.is_over:
        if game.legal_actions().can_roll:
            game.roll_with(rng)
            continue
        pick = decide(game, Level.HARD, random.Random(game.round))
        assert decide(game, Level.HARD, random.Random(game.round)) == pick
        decisions.append(pick)
        game.apply(pick if rng.random() < 0.5 else Pick(rng.choice(game.available())))
    assert len(decisions) == 2 * count * count
