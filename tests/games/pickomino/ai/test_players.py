import random
from itertools import product

import pytest

from bot.games.pickomino.ai.players import (
    Level,
    RollDice,
    bot_name,
    carry_out,
    choose_action,
    decide,
)
from bot.games.pickomino.ai.position import Position
from bot.games.pickomino.ai.solver import solve_position
from bot.games.pickomino.ai.states import TurnState
from bot.games.pickomino.engine import Claim, Face, Game, Keep, Roll
from tests.games.pickomino.engine.helpers import faces, position


def play_game(levels: list[Level], seed: int) -> Game:
    """Play a whole game through the engine, checking each move is legal first."""
    rng = random.Random(seed)
    players = [f"p{seat}" for seat in range(len(levels))]
    level_of = dict(zip(players, levels, strict=True))
    game = Game(players, first=seed % len(players))
    for _ in range(5000):
        if game.is_over:
            return game
        legal = game.legal_actions()
        decision = decide(game, level_of[game.current_player])
        if isinstance(decision, RollDice):
            assert legal.can_roll
            game.roll_with(rng)
        elif isinstance(decision, Keep):
            assert decision.face in legal.keepable
            game.apply(decision)
        else:
            assert isinstance(decision, Claim)
            assert decision.option in legal.claims
            game.apply(decision)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("levels", list(product(Level, repeat=2)), ids=str)
def test_bots_play_legal_moves_to_the_end(levels: tuple[Level, ...]) -> None:
    for seed in range(4):
        game = play_game(list(levels), seed)
        assert game.is_over and not game.grill


@pytest.mark.parametrize("seed", range(6))
def test_bots_finish_bigger_tables(seed: int) -> None:
    rng = random.Random(seed)
    levels = [rng.choice(list(Level)) for _ in range(rng.randrange(3, 8))]
    assert play_game(levels, seed).is_over


def turn_gain(game: Game, rng: random.Random) -> int:
    """Play one Hard turn and return the change of the mover's worms."""
    player = game.current_player
    before = game.score(player)
    turn = game.turn_number
    while game.turn_number == turn and not game.is_over:
        decision = decide(game, Level.HARD)
        if isinstance(decision, RollDice):
            game.roll_with(rng)
        else:
            game.apply(decision)
    return game.score(player) - before


@pytest.mark.parametrize(
    "stacks",
    [{"bob": [], "anne": []}, {"bob": [30], "anne": [27]}],
    ids=["fresh", "with-tops"],
)
def test_hard_gets_the_expected_worms_in_play(stacks: dict[str, list[int]]) -> None:
    # An independent check of the solver's expectation: simulate its own policy.
    rng = random.Random(11)
    start = position(stacks, current="bob")
    expected = solve_position(Position.from_game(start)).value(TurnState.start())
    turns = 3000
    gains = [turn_gain(start.copy(), rng) for _ in range(turns)]
    mean = sum(gains) / turns
    spread = (sum((gain - mean) ** 2 for gain in gains) / (turns - 1)) ** 0.5
    assert abs(mean - expected) < 4 * spread / turns**0.5


def test_hard_steals_when_the_steal_is_worth_more() -> None:
    turned = (29, 31, 32, 33, 34, 35, 36)
    game = position({"anne": [30], "bob": [21]}, face_down=turned, current="bob")
    for dice, keep in (("WWW55532", "W"), ("55532", "5")):
        game.apply(Roll(faces(dice)))
        game.apply(Keep(Face.parse(keep)))
    decision = decide(game, Level.HARD)
    assert isinstance(decision, Claim)
    assert decision.option.victim == "anne" and decision.option.tile == 30


def test_easy_stops_at_the_first_tile_and_normal_waits() -> None:
    game = position({"anne": [], "bob": []}, current="bob")
    game.apply(Roll(faces("WW444111")))
    assert decide(game, Level.EASY) == Keep(Face.WORM)
    assert decide(game, Level.NORMAL) == Keep(Face.WORM)
    game.apply(Keep(Face.WORM))
    game.apply(Roll(faces("544411")))
    assert decide(game, Level.EASY) == Keep(Face.FIVE)  # the face worth most
    assert decide(game, Level.NORMAL) == Keep(Face.FOUR)  # 12 points of 4s beat one 5
    game.apply(Keep(Face.FOUR))  # 22 with a worm, 3 dice left
    assert isinstance(decide(game, Level.EASY), Claim)
    assert decide(game, Level.NORMAL) == RollDice()  # 22 is below its threshold
    game.apply(Roll(faces("553")))
    game.apply(Keep(Face.FIVE))  # 32 with a worm
    assert decide(game, Level.NORMAL) == Claim(game.claim_options()[0])


def test_choose_action_rolls_with_the_given_rng() -> None:
    game = Game(["anne", "bob"])
    action = choose_action(game, Level.HARD, random.Random(1))
    assert isinstance(action, Roll) and len(action.dice) == 8
    game.apply(action)


def test_no_move_once_the_game_is_over() -> None:
    game = play_game([Level.EASY, Level.EASY], seed=1)
    for level in Level:
        with pytest.raises(ValueError):
            decide(game, level)


def test_bot_names_are_friendly_and_distinct() -> None:
    names = [bot_name(level, index) for level in Level for index in range(12)]
    assert len(set(names)) == len(names)
    assert bot_name(Level.HARD, 0).startswith(("Pip", "Nibbles", "Sprout", "Wiggles", "Crumb"))
    assert "hard" in bot_name(Level.HARD, 0)
    with pytest.raises(ValueError):
        bot_name(Level.EASY, -1)


def test_carry_out_rolls_for_a_roll_decision_and_applies_any_other():
    game = Game(("Anne", "Bob"))
    events = carry_out(game, RollDice(), random.Random(3))
    assert game.roll is not None and len(game.roll) == 8
    assert [type(event).__name__ for event in events] == ["Rolled"]
    decision = decide(game, Level.NORMAL)
    carry_out(game, decision, random.Random(3))
    assert isinstance(decision, Keep) and game.kept.count(decision.face) > 0
