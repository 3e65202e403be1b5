"""The batched turn solver gives solver.py's values, many tables at a time."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.pickomino.ai.batch import start_values
from bot.games.pickomino.ai.position import Position
from bot.games.pickomino.ai.solver import TurnValues
from bot.games.pickomino.ai.states import MAX_TOTAL
from tests.games.pickomino.ai.reward_tables import START, reward_tables


@settings(max_examples=25, deadline=None)
@given(st.lists(reward_tables, min_size=1, max_size=4))
def test_each_table_gets_the_value_the_one_table_solver_gives(
    tables: list[tuple[tuple[float | None, ...], float]],
) -> None:
    solved = start_values(tables)
    assert len(solved) == len(tables)
    for (rewards, fail), value in zip(tables, solved, strict=True):
        assert value == pytest.approx(TurnValues(rewards, fail).value(START), abs=1e-9)


def test_the_game_positions_tables_agree_too() -> None:
    # Real tables: a fresh grill, a top tile to lose, an opponent's tile to steal.
    positions = [
        Position(),
        Position(own_top=30, opponent_tops=(("anne", 27),)),
        Position(grill=(21, 22, 35, 36), own_top=33),
    ]
    tables = [(position.rewards(), position.fail_value) for position in positions]
    expected = [TurnValues(rewards, fail).value(START) for rewards, fail in tables]
    assert list(start_values(tables)) == pytest.approx(expected, abs=1e-12)
    # The first turn of the game, counting worms: about 1.64 worms expected.
    assert expected[0] == pytest.approx(1.645, abs=0.001)


def test_a_table_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="one entry per sum"):
        start_values([((1.0,) * MAX_TOTAL, 0.0)])
