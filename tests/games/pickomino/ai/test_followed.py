"""A turn played for one table, valued by another: what the next player's answer is
worth to the player who just moved (followed.py, Extrawurm Hard with 3+ players)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.pickomino.ai.batch import start_values
from bot.games.pickomino.ai.followed import followed_start_values
from bot.games.pickomino.ai.solver import TurnValues
from bot.games.pickomino.ai.states import MAX_TOTAL
from tests.games.pickomino.ai.reward_tables import START, reward_tables


def _random_table(seed: int) -> tuple[tuple[float | None, ...], float]:
    """Rewards as a game gives them: none below 21, then distinct values; a failure
    below them all."""
    rng = random.Random(seed)
    rewards = tuple(None if total < 21 else rng.uniform(-1, 1) for total in range(MAX_TOTAL + 1))
    return rewards, -2.0


def test_an_onlooker_counting_tiles_gets_the_chance_the_player_ends_with_one() -> None:
    # The onlooker is paid 1 for every tile the player takes (in the second case a sum
    # of 30 or more only) and 0 for a failure: the value is the solver's own chance.
    # Random distinct rewards: the solver's chances break a tie (within TIE) by the
    # likelier tile, which the followed play need not do, and game values rarely tie.
    tables = [_random_table(seed) for seed in range(4)]
    for totals in (None, frozenset(range(30, MAX_TOTAL + 1))):
        onlooker = [
            (
                tuple(
                    None if r is None else float(totals is None or total in totals)
                    for total, r in enumerate(rewards)
                ),
                0.0,
            )
            for rewards, _ in tables
        ]
        followed = followed_start_values(tables, onlooker)
        for (rewards, fail), value in zip(tables, followed, strict=True):
            chance = TurnValues(rewards, fail).reward_chance(START, totals)
            assert value == pytest.approx(chance, abs=1e-9)


@settings(max_examples=20, deadline=None)
@given(st.lists(reward_tables, min_size=1, max_size=3))
def test_the_players_own_table_and_its_opposite_follow_the_solved_value(
    tables: list[tuple[tuple[float | None, ...], float]],
) -> None:
    solved = start_values(tables)
    assert list(followed_start_values(tables, tables)) == pytest.approx(list(solved), abs=1e-9)
    # Two players: what one gains the other loses.
    opposite = [
        (tuple(None if r is None else -r for r in rewards), -fail) for rewards, fail in tables
    ]
    followed = followed_start_values(tables, opposite)
    assert list(followed) == pytest.approx([-value for value in solved], abs=1e-9)


def test_tables_must_come_in_pairs() -> None:
    table = ((None,) * (MAX_TOTAL + 1), 0.0)
    with pytest.raises(ValueError, match="one onlooker table"):
        followed_start_values([table, table], [table])
