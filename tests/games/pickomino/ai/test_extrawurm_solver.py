"""The Extrawurm turn solver against an independent brute force and hand-worked odds."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from bot.games.pickomino.ai.extrawurm_solver import (
    MAX_CLAIM,
    ExtrawurmValues,
    TurnRewards,
    graph,
    state_of,
)
from bot.games.pickomino.ai.states import merged_outcomes
from bot.games.pickomino.engine.dice import Face

WORM = 6
POINTS = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, WORM: 5}
CAN = 5


def brute_force(
    kept: tuple[int, ...],
    weasel: bool,
    *,
    dice: int,
    stops: Callable[[int], Fraction | None],
    fail: Fraction,
    bonus: Fraction,
    can: bool,
    after: tuple[Callable[[int], Fraction | None], Fraction] | None = None,
) -> Fraction:
    """Ordered rolls and Fractions, sharing no code with the solver: the best expected
    reward with `kept` kept and the choice to roll or stop (the Weasel unused if set).
    A keep of two or more 1s adds `bonus`, or with `after` (stops and failure with the
    Bratwurm) switches the rest of the turn to those rewards."""

    def rewards(gained: bool) -> tuple[Callable[[int], Fraction | None], Fraction]:
        return after if gained and after is not None else (stops, fail)

    def stop(kept: tuple[int, ...], gained: bool) -> Fraction | None:
        paid = rewards(gained)[0]
        total = sum(POINTS[face] for face in kept)
        if WORM in kept:
            return paid(total)
        return paid(total + CAN) if can and kept else None

    @cache
    def roll(kept: tuple[int, ...], weasel: bool, gained: bool) -> Fraction:
        left = dice - len(kept)
        failed = rewards(gained)[1]
        again = roll(kept, False, gained) if weasel else None
        total = Fraction(0)
        for dice_rolled in product(range(1, 7), repeat=left):
            new = set(dice_rolled) - set(kept)
            best = failed
            if new:
                options = []
                for face in new:
                    ones = face == 1 and dice_rolled.count(1) > 1
                    kept_now = tuple(sorted(kept + (face,) * dice_rolled.count(face)))
                    if ones and after is not None:
                        options.append(value(kept_now, weasel, True))
                    else:
                        options.append(value(kept_now, weasel, gained) + (bonus if ones else 0))
                best = max(options)
            if again is not None:
                best = max(best, again)
            total += best
        return total / 6**left

    @cache
    def value(kept: tuple[int, ...], weasel: bool, gained: bool) -> Fraction:
        stopped = stop(kept, gained)
        if len(kept) == dice or len(set(kept)) == 6:
            return rewards(gained)[1] if stopped is None else stopped
        rolled = roll(kept, weasel, gained)
        return rolled if stopped is None else max(stopped, rolled)

    return value(tuple(sorted(kept)), weasel, False)


def random_stops(rng: random.Random) -> tuple[Fraction | None, ...]:
    return tuple(
        None if rng.random() < 0.4 else Fraction(rng.randrange(-4, 9), 2)
        for _ in range(MAX_CLAIM + 1)
    )


@pytest.mark.parametrize("seed", range(12))
def test_matches_the_brute_force_near_the_end_of_a_turn(seed: int) -> None:
    # Seeds 8 and up: the rewards after the Bratwurm are given apart (Hard's exact
    # values when a point can decide the game), not the stops plus the bonus.
    rng = random.Random(seed)
    dice = 9 if seed % 2 else 8
    can, weasel = bool(seed & 2), bool(seed & 4)
    stops = random_stops(rng)
    fail, bonus = Fraction(rng.randrange(-6, 1), 2), Fraction(rng.choice((0, 1, 3)), 2)
    after = None
    if seed >= 8:
        bonus = Fraction(1, 2)
        after = (random_stops(rng), Fraction(rng.randrange(-6, 1), 2))
    values = ExtrawurmValues(
        TurnRewards(
            stops=floats(stops),
            fail=float(fail),
            bonus=float(bonus),
            dice=dice,
            can=can,
            weasel=weasel,
            after_bonus=None if after is None else (floats(after[0]), float(after[1])),
        )
    )
    for _ in range(6):
        left = rng.randrange(1, 4)
        faces = rng.sample(range(1, 7), rng.randrange(1, 6))
        kept = tuple(rng.choice(faces) for _ in range(dice - left))
        for use_weasel in (False, True):
            expected = brute_force(
                kept,
                use_weasel and weasel,
                dice=dice,
                stops=stops.__getitem__,
                fail=fail,
                bonus=bonus,
                can=can,
                after=None if after is None else (after[0].__getitem__, after[1]),
            )
            state = state_of([Face(face) for face in kept], dice)
            assert values.value(state, use_weasel) == pytest.approx(float(expected), abs=1e-9)


def floats(stops: tuple[Fraction | None, ...]) -> tuple[float | None, ...]:
    return tuple(None if stop is None else float(stop) for stop in stops)


def test_the_weasel_gives_a_second_chance_at_a_new_face() -> None:
    # 1, 2, 3, 4 and three worms kept (25), one die left: only a 5 is new; 30 pays 1.
    stops = tuple(1.0 if total == 30 else None for total in range(MAX_CLAIM + 1))
    kept = [Face.ONE, Face.TWO, Face.THREE, Face.FOUR, Face.WORM, Face.WORM, Face.WORM]
    values = ExtrawurmValues(TurnRewards(stops, fail=0.0, weasel=True))
    state = state_of(kept, 8)
    assert values.roll_value(state, weasel=False) == pytest.approx(1 / 6)
    assert values.roll_value(state, weasel=True) == pytest.approx(1 - (5 / 6) ** 2)
    assert values.reward_chance(state, weasel=True) == pytest.approx(11 / 36)


@pytest.mark.parametrize("seed", range(6))
def test_the_chance_of_a_tile_is_the_value_of_a_turn_that_pays_one_per_tile(seed: int) -> None:
    # With 1 for every tile and 0 for a failure, best play maximises the chance of a
    # tile, so following the policy must count exactly the turn's value, from every
    # state and with the Weasel unused or not; a filter of every paying total too.
    rng = random.Random(seed)
    dice = 9 if seed % 2 else 8
    weasel, can = seed in (0, 2), seed in (3, 4)
    paying = frozenset(rng.sample(range(11, MAX_CLAIM + 1), 12))
    stops = tuple(1.0 if total in paying else None for total in range(MAX_CLAIM + 1))
    values = ExtrawurmValues(TurnRewards(stops, fail=0.0, dice=dice, can=can, weasel=weasel))
    for state in graph(dice).states:
        for use_weasel in (False, True):
            expected = values.value(state, use_weasel)
            assert values.reward_chance(state, use_weasel) == pytest.approx(expected, abs=1e-9)
            chance = values.reward_chance(state, use_weasel, paying)
            assert chance == pytest.approx(expected, abs=1e-9)
            rolled = values.roll_reward_chance(state, use_weasel)
            if rolled is not None:
                roll_value = values.roll_value(state, use_weasel)
                assert rolled == pytest.approx(roll_value, abs=1e-9)


def test_the_canned_worm_stops_without_a_worm_with_five_more() -> None:
    stops = tuple(3.0 if total == 11 else None for total in range(MAX_CLAIM + 1))
    state = state_of([Face.ONE, Face.ONE, Face.FOUR], 8)  # 6, no worm
    with_can = ExtrawurmValues(TurnRewards(stops, fail=-1.0, can=True))
    without = ExtrawurmValues(TurnRewards(stops, fail=-1.0))
    assert with_can.stop_value(state) == 3.0 and with_can.value(state) == 3.0
    assert without.stop_value(state) is None and without.value(state) < 3.0


def test_two_ones_bring_the_bratwurm_even_when_the_turn_fails() -> None:
    # Nothing can be claimed: a turn is worth the failure, plus 1 per Bratwurm earned.
    stops: tuple[float | None, ...] = (None,) * (MAX_CLAIM + 1)
    values = ExtrawurmValues(TurnRewards(stops, fail=-2.0, bonus=1.0))
    start = state_of([], 8)
    assert values.value(start) > -2.0  # a keep of 1s pays at least once
    ones = state_of([Face.ONE, Face.ONE], 8)
    assert values.kept_value(ones, False, ones_bonus=True) == pytest.approx(-1.0)


@pytest.mark.parametrize("dice", [8, 9])
def test_each_outcome_leads_where_keeping_its_dice_leads(dice: int) -> None:
    # Kept again die by die: a keep of two or more 1s leads to the state's twin.
    built = graph(dice)
    size = len(built.states)
    for node in built.rolls:
        state = built.states[node.state]
        fail, outcomes = merged_outcomes(state.mask, state.dice_left)
        expected = [
            tuple(
                built.index[state.keep(face, count)]
                + (size if face is Face.ONE and count > 1 else 0)
                for face, count in keeps
            )
            for _, keeps in outcomes
        ]
        assert node.fail_chance == fail
        assert node.single_successors == tuple(t[0] for t in expected if len(t) == 1)
        assert node.successors == tuple(t for t in expected if len(t) > 1)
        values = list(range(built.padding + 1))
        assert [getter(values) for getter in node.getters] == list(node.successors)
        assert [getter(values) for getter in node.weasel_getters] == [
            (*targets, built.scratch) for targets in node.successors
        ]


def test_nine_dice_graph_holds_every_state() -> None:
    nine, eight = graph(9), graph(8)
    assert len(eight.states) == 1939  # as the base solver's
    assert len(nine.states) > len(eight.states)
    assert all(state.dice_left <= 9 for state in nine.states)
    assert state_of([], 9) in nine.index
