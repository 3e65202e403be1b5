"""The numpy turn solver gives the values of the turn's graph walked in plain Python,
one table or many at a time (solver.py's TurnValues takes its values from it; the brute
force of test_solver.py checks those independently)."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.pickomino.ai.batch import followed_start_values, start_values, state_values
from bot.games.pickomino.ai.position import Position
from bot.games.pickomino.ai.rewards import TIE, Rewards
from bot.games.pickomino.ai.states import MAX_TOTAL, state_graph
from tests.games.pickomino.ai.reward_tables import START, reward_tables


def walked_in_python(rewards: Rewards, fail: float) -> list[float]:
    """The dynamic programme state by state, as plainly as it reads: the reference."""
    graph = state_graph()
    states = graph.states
    values = [-math.inf] * (len(states) + 1)
    for i in graph.ended:
        stop = rewards[states[i].total] if states[i].has_worm else None
        values[i] = fail if stop is None else stop
    for node in graph.rolls:
        roll = node.fail_chance * fail
        for chance, targets in zip(node.probabilities, node.successors, strict=True):
            roll += chance * max(values[target] for target in targets)
        for chance, target in zip(node.single_probabilities, node.single_successors, strict=True):
            roll += chance * values[target]
        stop = rewards[node.total] if node.has_worm else None
        values[node.state] = stop if stop is not None and stop >= roll - TIE else roll
    return values


@settings(max_examples=25, deadline=None)
@given(reward_tables)
def test_every_state_gets_the_value_of_the_walk_in_python(
    table: tuple[tuple[float | None, ...], float],
) -> None:
    rewards, fail = table
    assert list(state_values(rewards, fail)) == pytest.approx(walked_in_python(rewards, fail))


def test_stopping_keeps_the_reward_exactly() -> None:
    # TurnValues.stops compares a state's value with its stop value for equality.
    rewards, fail = Position().rewards(), Position().fail_value
    graph = state_graph()
    values = state_values(rewards, fail)
    reference = walked_in_python(rewards, fail)
    stopped = [
        i
        for i, state in enumerate(graph.states)
        if state.has_worm and reference[i] == rewards[state.total]
    ]
    assert stopped  # a fresh game stops somewhere
    assert all(values[i] == rewards[graph.states[i].total] for i in stopped)


START_INDEX = state_graph().index[START]


@settings(max_examples=25, deadline=None)
@given(st.lists(reward_tables, min_size=1, max_size=4))
def test_each_table_gets_the_value_the_one_table_solver_gives(
    tables: list[tuple[tuple[float | None, ...], float]],
) -> None:
    solved = start_values(tables)
    assert len(solved) == len(tables)
    for (rewards, fail), value in zip(tables, solved, strict=True):
        assert value == pytest.approx(walked_in_python(rewards, fail)[START_INDEX], abs=1e-9)


def test_the_game_positions_tables_agree_too() -> None:
    # Real tables: a fresh grill, a top tile to lose, an opponent's tile to steal.
    positions = [
        Position(),
        Position(own_top=30, opponent_tops=(("anne", 27),)),
        Position(grill=(21, 22, 35, 36), own_top=33),
    ]
    tables = [(position.rewards(), position.fail_value) for position in positions]
    expected = [walked_in_python(rewards, fail)[START_INDEX] for rewards, fail in tables]
    assert list(start_values(tables)) == pytest.approx(expected, abs=1e-12)
    # The first turn of the game, counting worms: about 1.64 worms expected.
    assert expected[0] == pytest.approx(1.645, abs=0.001)


def test_a_table_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="one entry per sum"):
        start_values([((1.0,) * MAX_TOTAL, 0.0)])


def followed_in_python(policy: tuple[Rewards, float], valued: tuple[Rewards, float]) -> float:
    """The turn played best for `policy` (the first of equal successors), valued at its
    ends by `valued`, from the start: the reference, walked plainly. The policy's values
    are state_values' (checked above against the walk), so that successors equal but
    for float noise rank the same."""
    rewards, fail = policy
    other, other_fail = valued
    graph = state_graph()
    states = graph.states
    values = list(state_values(rewards, fail))
    followed = [0.0] * (len(states) + 1)
    for i in graph.ended:
        stop = other[states[i].total] if states[i].has_worm else None
        followed[i] = other_fail if stop is None else stop
    for node in graph.rolls:
        roll = node.fail_chance * other_fail
        for chance, targets in zip(node.probabilities, node.successors, strict=True):
            roll += chance * followed[max(targets, key=lambda target: values[target])]
        for chance, target in zip(node.single_probabilities, node.single_successors, strict=True):
            roll += chance * followed[target]
        stop = rewards[node.total] if node.has_worm else None
        stopped = stop is not None and values[node.state] == stop
        followed[node.state] = other[node.total] if stopped else roll
    return followed[START_INDEX]


def other_values(table: tuple[Rewards, float], seed: int) -> tuple[Rewards, float]:
    """Another valuation of the same ends: a reward where `table` has one."""
    rewards = table[0]
    shifted = tuple(None if r is None else math.sin(seed + 7 * i) for i, r in enumerate(rewards))
    return shifted, math.cos(seed)


@settings(max_examples=15, deadline=None)
@given(st.lists(reward_tables, min_size=1, max_size=3))
def test_following_a_tables_play_values_its_ends_by_the_others(
    tables: list[tuple[tuple[float | None, ...], float]],
) -> None:
    # Valued by its own rewards the play is worth what the solver says it is.
    assert list(followed_start_values(tables, tables)) == pytest.approx(
        list(start_values(tables)), abs=1e-9
    )
    for seed in (1, 2):
        valued = [other_values(table, seed) for table in tables]
        followed = followed_start_values(tables, valued)
        assert followed.shape == (len(tables),)
        for table, by, value in zip(tables, valued, followed, strict=True):
            assert value == pytest.approx(followed_in_python(table, by), abs=1e-9)
