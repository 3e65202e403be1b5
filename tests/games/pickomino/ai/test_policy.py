import random

import pytest

from bot.games.pickomino.ai.policy import Move, evaluate, evaluate_game
from bot.games.pickomino.ai.position import Objective, Position
from bot.games.pickomino.engine import Claim, Face, Game, Keep, LowerTile, Roll, Rules, Source
from tests.games.pickomino.engine.helpers import faces, position


def random_positions(count: int, seed: int = 7):
    rng = random.Random(seed)
    for _ in range(count):
        tiles = rng.sample(range(21, 37), rng.randrange(4, 17))
        top = rng.choice([None, *range(21, 37)])
        opponent = rng.choice([None, *range(21, 37)])
        grill = tuple(sorted(set(tiles) - {top, opponent}))
        tops = (("anne", opponent),) if opponent is not None else ()
        kept = [rng.choice(list(Face)) for _ in range(rng.randrange(0, 6))]
        roll = [rng.choice(list(Face)) for _ in range(8 - len(kept))]
        yield Position(grill, top, tops), kept, roll


def test_the_best_action_is_never_worth_less_than_another() -> None:
    checked = 0
    for where, kept, roll in random_positions(150):
        for dice in (None, roll):
            try:
                evaluation = evaluate(where, kept, dice)
            except ValueError:
                continue  # a roll with no new face, or nothing to do
            values = [action.value for action in evaluation.actions]
            assert evaluation.best.value == max(values)
            assert values == sorted(values, reverse=True)
            checked += 1
    assert checked > 200


def test_keeping_is_valued_as_the_state_it_leads_to() -> None:
    where = Position(own_top=24)
    evaluation = evaluate(where, faces("444"), faces("W5513"))
    values = evaluation.values
    for option in evaluation.keep_options():
        after = evaluation.state.keep(option.face, option.count)
        assert option.value == values.value(after)
    assert {action.face for action in evaluation.actions} == {
        Face.WORM,
        Face.FIVE,
        Face.ONE,
        Face.THREE,
    }
    assert evaluation.best.move is Move.KEEP_ROLL
    assert evaluation.best.face is Face.WORM


def test_a_steal_worth_more_than_the_grill_tile_is_chosen() -> None:
    # 30 is on Anne's stack; the highest grill tile below 30 is 28 (2 worms), and
    # nothing above 30 is left, so rolling on could only make things worse.
    turned = (29, 31, 32, 33, 34, 35, 36)
    game = position({"anne": [30], "bob": [21]}, face_down=turned, current="bob")
    game.apply(Roll(faces("WWW55532")))
    game.apply(Keep(Face.WORM))  # 15
    game.apply(Roll(faces("55532")))
    game.apply(Keep(Face.FIVE))  # 30
    evaluation = evaluate_game(game, Objective.WORMS)
    steal = evaluation.actions[0]
    assert steal.move is Move.STOP
    assert steal.claim is not None and steal.claim.source is Source.STEAL
    assert steal.claim.tile == 30 and steal.value == 3.0
    stops = [action.claim.tile for action in evaluation.actions if action.move is Move.STOP]
    assert stops == [30, 28]


def test_stopping_lists_every_lower_tile_under_the_any_rule() -> None:
    game = Game(["anne", "bob"], Rules(lower_tile=LowerTile.ANY))
    game.grill = [21, 22, 25]
    game.apply(Roll(faces("WWWW5555")))
    game.apply(Keep(Face.WORM))
    game.apply(Roll(faces("5555")))
    game.apply(Keep(Face.FIVE))  # 40, every die kept
    evaluation = evaluate_game(game, Objective.WORMS)
    assert [action.claim.tile for action in evaluation.actions] == [25, 22, 21]
    assert [action.value for action in evaluation.actions] == [2.0, 1.0, 1.0]


def test_a_keep_that_ends_the_turn_without_a_tile_fails() -> None:
    where = Position(own_top=33)
    evaluation = evaluate(where, faces("1112223"), faces("4"))
    (keep,) = evaluation.actions
    assert keep.move is Move.KEEP_STOP and keep.claim is None
    assert keep.value == -4.0


def test_a_failed_roll_has_no_action() -> None:
    with pytest.raises(ValueError):
        evaluate(Position(), faces("W"), faces("WWWWWWW"))


def test_a_finished_game_has_no_evaluation() -> None:
    game = Game(["anne", "bob"])
    game.grill = [21]
    game.apply(Roll(faces("WWWWWWWW")))
    game.apply(Keep(Face.WORM))
    game.apply(Claim(game.claim_options()[0]))
    assert game.is_over
    with pytest.raises(ValueError):
        evaluate_game(game)
