"""The exact best play against two Normals (benchmarks/support/picker_ceiling.py) models
the engine's rounds exactly and finds the best keeps."""

from __future__ import annotations

import random

import pytest

from benchmarks.support.picker_ceiling import DICE, ceiling, round_moves, solve
from benchmarks.support.picker_opponents import greedy_index
from bot.games.picker.ai import Level, decide
from bot.games.picker.ai.greedy import greedy_choice
from bot.games.picker.engine import Pick, RollDice
from bot.games.picker.engine.colours import COLOUR_INDEX
from tests.games.picker.helpers import key_and_gaps, play_rounds


def test_a_normal_in_the_seat_gets_exactly_a_fair_share() -> None:
    values = ceiling(solve(rounds=2, policy=greedy_choice))
    assert sum(values) / 3 == pytest.approx(1 / 3, abs=1e-12)
    assert values[0] > values[2] > values[1]  # keeping first beats second beats third


def test_a_greedy_player_among_greedy_players_gets_exactly_a_fair_share() -> None:
    values = ceiling(solve(rounds=2, policy=greedy_index, opponent=greedy_index))
    assert sum(values) / 3 == pytest.approx(1 / 3, abs=1e-12)
    best = ceiling(solve(rounds=2, opponent=greedy_index))
    assert all(b >= v for b, v in zip(best, values, strict=True))


def test_the_best_play_beats_normal_from_every_seat() -> None:
    best = ceiling(solve(rounds=2))
    normal = ceiling(solve(rounds=2, policy=greedy_choice))
    assert all(b >= n for b, n in zip(best, normal, strict=True))
    assert sum(best) > sum(normal) + 0.1


@pytest.mark.parametrize("seed", range(12))
def test_a_round_moves_the_state_as_the_engine_does(seed: int) -> None:
    rounds = seed % 6
    game = play_rounds(seed, rounds)
    key, d1, d2 = key_and_gaps(game)
    more_rounds = rounds + 1 < 6
    for dice in DICE[seed::23]:
        table = game.copy()
        table.apply(RollDice(dice))
        while table.current != 0:
            table.apply(decide(table, Level.NORMAL, random.Random(0)))
        moves = []
        for colour in table.available():
            trial = table.copy()
            trial.apply(Pick(colour))
            while trial.round == rounds:
                trial.apply(decide(trial, Level.NORMAL, random.Random(0)))
            index = COLOUR_INDEX[colour]
            ((shift1, shift2, next_key),) = round_moves(
                key, dice, more_rounds, lambda *_args, index=index: index
            )
            assert key_and_gaps(trial) == (next_key, d1 + shift1, d2 + shift2)
            moves.append((shift1, shift2, next_key))
        assert round_moves(key, dice, more_rounds, None) == tuple(sorted(moves))


@pytest.mark.parametrize("seed", range(4))
def test_the_last_round_value_is_the_engines_best(seed: int) -> None:
    game = play_rounds(seed, 5)
    key, d1, d2 = key_and_gaps(game)
    expected = 0.0
    for dice in DICE:
        best = 0.0
        table = game.copy()
        table.apply(RollDice(dice))
        while table.current != 0:
            table.apply(decide(table, Level.NORMAL, random.Random(0)))
        for colour in table.available():
            trial = table.copy()
            trial.apply(Pick(colour))
            while not trial.is_over:
                trial.apply(decide(trial, Level.NORMAL, random.Random(0)))
            winners = [s.player for s in trial.standings() if s.rank == 1]
            best = max(best, 1 / len(winners) if game.players[0] in winners else 0.0)
        expected += best / len(DICE)
    solution = solve(rounds=1, starts=(key,), start_gap=max(abs(d1), abs(d2)))
    assert solution.value(key, d1, d2) == pytest.approx(expected, abs=1e-12)
