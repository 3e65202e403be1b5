from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bot.games.pickomino.ai.odds import tile_odds
from bot.games.pickomino.ai.position import Position
from bot.games.pickomino.ai.rewards import TIE
from bot.games.pickomino.ai.rolls import roll_outcomes
from bot.games.pickomino.ai.solver import TurnValues, solve, solve_position
from bot.games.pickomino.ai.states import (
    ALL_KEPT,
    MAX_TOTAL,
    TurnState,
    face_bit,
    merged_outcomes,
    state_graph,
)
from bot.games.pickomino.engine import Face
from bot.games.pickomino.engine.tiles import worms
from tests.games.pickomino.ai.brute_force import at_least, best_value, exactly

W = Face.WORM


def faces(text: str) -> tuple[Face, ...]:
    return tuple(Face.parse(char) for char in text)


def test_the_graph_holds_every_kept_multiset() -> None:
    graph = state_graph()
    assert len(graph.states) == 1939
    assert TurnState.start() in graph.index
    assert len(graph.ended) + len(graph.rolls) == len(graph.states)
    # A roll's successors are always valued before it: they are over, or come earlier.
    done = set(graph.ended)
    for node in graph.rolls:
        assert not graph.states[node.state].is_over
        assert done.issuperset(node.single_successors)
        assert all(done.issuperset(targets) for targets in node.successors)
        total = node.fail_chance + sum(node.probabilities) + sum(node.single_probabilities)
        assert total == pytest.approx(1.0)
        done.add(node.state)


def test_each_outcome_leads_where_keeping_its_dice_leads() -> None:
    # The graph looks successors up in a table per state (states.successor_table);
    # here each outcome's dice are kept again one by one, as the rules say.
    graph = state_graph()
    padding = len(graph.states)
    for node in graph.rolls:
        state = graph.states[node.state]
        fail, outcomes = merged_outcomes(state.mask, state.dice_left)
        expected = [
            (chance, tuple(graph.index[state.keep(face, count)] for face, count in keeps))
            for chance, keeps in outcomes
        ]
        singles = [(chance, targets[0]) for chance, targets in expected if len(targets) == 1]
        others = [(chance, targets) for chance, targets in expected if len(targets) > 1]
        assert node.fail_chance == fail
        assert list(zip(node.single_probabilities, node.single_successors, strict=True)) == singles
        assert list(zip(node.probabilities, node.successors, strict=True)) == others
        values = [float(index) for index in range(padding + 1)]
        assert [getter(values) for getter in node.getters] == [
            tuple(map(float, targets)) for _, targets in others
        ]
        if node.single_getter is not None:
            assert node.single_getter(values)[:-1] == tuple(map(float, node.single_successors))


@pytest.mark.parametrize("dice", range(1, 10))
def test_merged_outcomes_count_every_roll_once(dice: int) -> None:
    # Each ordered roll of `dice` dice, merged by its faces not kept yet, 3 and worm kept.
    mask = face_bit(Face.THREE) | face_bit(W)
    ways: dict[tuple[tuple[Face, int], ...], int] = {}
    for outcome in roll_outcomes(dice):
        new = [face for face in Face if face not in (Face.THREE, W)]
        keeps = tuple((face, outcome.count(face)) for face in new if outcome.count(face))
        ways[keeps] = ways.get(keeps, 0) + outcome.ways
    fail, outcomes = merged_outcomes(mask, dice)
    assert fail == ways.pop((), 0) / 6**dice
    assert list(outcomes) == [(count / 6**dice, keeps) for keeps, count in ways.items()]


def test_a_roll_with_every_face_kept_shows_none_new() -> None:
    assert merged_outcomes(ALL_KEPT, 2) == (1.0, ())


# Known values, worked out by hand.


def test_one_die_left_needs_a_worm() -> None:
    # 4,4,4,3,3,3,2 = 23 without a worm: only a worm on the last die gives a tile.
    assert tile_odds(faces("4443332")).at_least[21] == pytest.approx(1 / 6, abs=1e-15)


def test_one_die_from_35() -> None:
    # 5,5,5,5,W,W,W = 35: any of 1 to 4 reaches 36 and more, only a 1 makes exactly 36.
    odds = tile_odds(faces("5555WWW"))
    assert odds.at_least[36] == pytest.approx(4 / 6, abs=1e-15)
    assert odds.exactly[36] == pytest.approx(1 / 6, abs=1e-15)
    assert odds.at_least[35] == 1.0


def test_two_dice_left_keep_a_low_face_to_try_again() -> None:
    # 5,5,4,4,3,3 = 24 without a worm, two dice left: a worm at once (11/36), or a
    # single 1 or 2 to keep (1-2, 2-1, 1-3 ... : 14/36) and a worm on the last die
    # (1/6). A double 1 or 2 would keep both dice and fail.
    expected = Fraction(11, 36) + Fraction(14, 36) * Fraction(1, 6)
    assert expected == Fraction(10, 27)
    assert tile_odds(faces("554433")).at_least[21] == pytest.approx(float(expected), abs=1e-15)


# Against the independent brute force, with Fractions.

kept_faces = st.lists(st.sampled_from(list(Face)), min_size=5, max_size=8)


@settings(max_examples=40, deadline=None)
@given(kept=kept_faces, tile=st.integers(21, 36))
def test_odds_equal_the_brute_force(kept: list[Face], tile: int) -> None:
    odds = tile_odds(kept)
    plain = tuple(int(face) for face in kept)
    assert odds.at_least[tile] == pytest.approx(float(best_value(plain, at_least(tile))))
    assert odds.exactly[tile] == pytest.approx(float(best_value(plain, exactly(tile))))


def grill_reward(grill: frozenset[int], tops: frozenset[int]):
    def reward(total: int) -> Fraction | None:
        if total in grill or total in tops:
            return Fraction(worms(total))
        below = [tile for tile in grill if tile < total]
        return Fraction(worms(max(below))) if below else None

    return reward


@settings(max_examples=40, deadline=None)
@given(
    kept=kept_faces,
    grill=st.frozensets(st.integers(21, 36), min_size=1),
    top=st.none() | st.integers(21, 36),
    opponent=st.none() | st.integers(21, 36),
)
def test_expected_worms_equal_the_brute_force(
    kept: list[Face], grill: frozenset[int], top: int | None, opponent: int | None
) -> None:
    grill = grill - {top, opponent}
    assume(grill)  # an empty grill ends the game: no turn to play
    tops = (("anne", opponent),) if opponent is not None else ()
    position = Position(tuple(sorted(grill)), top, tops)
    fail = Fraction(-worms(top)) if top is not None else Fraction(0)
    reward = grill_reward(grill, frozenset({opponent} - {None}))
    expected = best_value(tuple(int(face) for face in kept), reward, fail)
    state = TurnState.from_kept(kept)
    assert solve_position(position).value(state) == pytest.approx(float(expected))


# Properties of the solution.


@settings(max_examples=25, deadline=None)
@given(kept=st.lists(st.sampled_from(list(Face)), max_size=8))
def test_at_least_decreases_and_exactly_is_below_it(kept: list[Face]) -> None:
    odds = tile_odds(kept)
    chances = [odds.at_least[tile] for tile in range(21, 37)]
    assert all(high >= low - 1e-12 for high, low in pairwise(chances))
    for tile in range(21, 37):
        assert 0.0 <= odds.exactly[tile] <= odds.at_least[tile] + 1e-12 <= 1.0 + 1e-12


def test_values_are_the_best_of_rolling_and_stopping() -> None:
    values = solve_position(Position(own_top=30, opponent_tops=(("anne", 27),)))
    for state in state_graph().states:
        stop, roll = values.stop_value(state), values.roll_value(state)
        if roll is None:
            assert state.is_over and values.stops(state)
            assert values.value(state) == (stop if stop is not None else values.fail)
            continue
        best = max(roll, stop if stop is not None else roll)
        assert values.value(state) == pytest.approx(best, abs=TIE)
        assert values.stops(state) == (stop is not None and stop >= roll - TIE)


def test_a_fresh_turn_with_every_tile_up() -> None:
    values = solve_position(Position())
    # Regression pins (the brute force cannot reach 8 dice); the simulation in
    # test_players checks the expectation independently.
    assert values.value(TurnState.start()) == pytest.approx(1.644729674, abs=1e-9)
    assert values.reward_chance(TurnState.start()) == pytest.approx(0.767768231, abs=1e-9)
    assert tile_odds().at_least[21] == pytest.approx(0.893027, abs=1e-6)


def test_solutions_are_memoized_per_reward_table() -> None:
    position = Position(grill=(21, 22, 30), own_top=25)
    assert solve_position(position) is solve_position(position)
    assert solve(position.rewards(), position.fail_value) is solve_position(position)


def test_a_reward_table_covers_every_sum() -> None:
    with pytest.raises(ValueError):
        TurnValues((None,) * MAX_TOTAL)
