import random

import pytest

from bot.games.pickomino.ai.hints import format_hint, hint_for, odds
from bot.games.pickomino.ai.outlook import STEALS
from bot.games.pickomino.ai.players import Level, RollDice, decide
from bot.games.pickomino.ai.policy import Move
from bot.games.pickomino.ai.position import Objective, Position, taken_by_the_next_player
from bot.games.pickomino.engine import Claim, Face, Game, Keep, Roll, Source
from tests.games.pickomino.engine.helpers import faces, keep_rolls, position


def thomas_game() -> Game:
    """Thomas's turn of the 2020 rulebook, with Anne's 32 to steal and his own 25."""
    game = position({"anne": [32], "thomas": [25]}, current="thomas")
    game.apply(Roll(faces("4441WW2W")))
    game.apply(Keep(Face.FOUR))
    game.apply(Roll(faces("W5513")))
    return game


def test_hint_for_a_pinned_position() -> None:
    hint = hint_for(thomas_game())
    assert hint.player == "thomas" and hint.total == 12 and hint.dice_left == 5
    assert [keep.face for keep in hint.keeps] == [Face.WORM, Face.FIVE, Face.THREE, Face.ONE]
    worm = hint.keeps[0]
    assert (worm.count, worm.total) == (1, 17)
    # Hard's play after keeping the worm is the optimal one for worms here too: the
    # chance of a tile is the one the worm-counting solver finds (0.939600).
    assert worm.tile_chance == pytest.approx(0.939600, abs=1e-6)
    assert 0 < worm.steal_chance < worm.tile_chance
    assert hint.recommended.move is Move.KEEP_ROLL and hint.recommended.face is Face.WORM
    assert hint.win_chance == worm.value
    assert hint.roll is None and hint.stop is None  # a face must be kept first
    assert format_hint(hint) == (
        "💡 Keep the worm, then roll: about a 19 in 20 chance to end with a tile.\n"
        "• Keep the two 5s (22): about a 3 in 5 chance of a tile\n"
        "• Keep the 3 (15): about a 2 in 3 chance of a tile\n"
        "• Keep the 1 (13): about a 2 in 3 chance of a tile\n"
        f"Your chance to win the game with this play: {odds(hint.win_chance)}."
    )


def test_chances_are_told_as_rough_odds() -> None:
    assert odds(0.76) == "about a 3 in 4"
    assert odds(0.5) == "about a 1 in 2"
    assert odds(0.34) == "about a 1 in 3"
    assert odds(0.03) == "about a 1 in 20"
    assert odds(0.999) == "a certain"
    assert odds(0.001) == "no"


def test_hint_to_stop_rather_than_roll_the_last_die() -> None:
    game = thomas_game()
    game.apply(Keep(Face.WORM))
    for dice, keep in (("55WW", Face.FIVE), ("31", Face.THREE)):
        game.apply(Roll(faces(dice)))
        game.apply(Keep(keep))
    hint = hint_for(game)  # 30 kept, one die left: a 1 or a 2, or lose the 25
    assert hint.stop is not None and hint.stop.tile == 30
    assert hint.roll is not None and hint.roll.tile_chance == pytest.approx(2 / 6)
    assert hint.roll.steal_chance == pytest.approx(1 / 6)  # a 2 makes Anne's 32
    assert hint.recommended.move is Move.STOP
    assert format_hint(hint).splitlines()[:2] == [
        "💡 Stop and take 30 (3🪱): rolling on has only about a 1 in 3 chance to end with a tile.",
        "• Roll 1 die: about a 1 in 3 chance of a tile",
    ]
    game.apply(Roll(faces("2")))
    hint = hint_for(game)
    assert hint.recommended.claim is not None
    assert hint.recommended.claim.source is Source.STEAL
    assert format_hint(hint, {"anne": "Anne"}).splitlines()[0] == (
        "💡 Keep the 2 and take 32 from Anne (3🪱), who loses it."
    )


def test_hint_for_a_keep_that_fails() -> None:
    game = position({"anne": [], "bob": [33]}, current="bob")
    for dice, keep in (("11122234", "1"), ("22234", "2"), ("34", "3")):
        game.apply(Roll(faces(dice)))
        game.apply(Keep(Face.parse(keep)))
    game.apply(Roll(faces("4")))
    hint = hint_for(game)
    (keep,) = hint.keeps
    assert keep.fails and keep.tile_chance == 0.0 and keep.steal_chance == 0.0
    # Losing the 33 (4 worms) to an empty-handed opponent: behind, with less to win.
    assert keep.value < 0.5
    assert format_hint(hint).splitlines()[0] == ("💡 Keep the 4: it's a bust whatever you keep.")


def test_hint_when_the_turn_ended_by_itself() -> None:
    game = position({"anne": [], "bob": []}, current="bob")
    game.apply(Roll(faces("WWWW5555")))
    game.apply(Keep(Face.WORM))
    game.apply(Roll(faces("5555")))
    game.apply(Keep(Face.FIVE))  # 40: every die kept
    hint = hint_for(game)
    assert hint.roll is None and hint.stop is not None and hint.stop.tile == 36
    assert format_hint(hint).splitlines()[0] == "💡 Stop and take 36 (4🪱)."


def test_the_hint_names_a_likely_steal() -> None:
    # Anne's 32 is within reach: 26 kept, two dice left, rolling for exactly 32.
    game = position({"anne": [32], "bob": []}, face_down=tuple(range(23, 32)), current="bob")
    keep_rolls(game, ("WWWW3311", "W"), ("3311", "3"))
    hint = hint_for(game)
    assert hint.roll is not None and hint.roll.steal_chance >= 0.05
    assert "chance of a steal" in format_hint(hint).splitlines()[0]


def test_hints_follow_the_hard_bot_and_stay_short() -> None:
    rng = random.Random(3)
    for seed in range(3):
        game = Game(["anne", "bob", "carl"], first=seed)
        while not game.is_over:
            hint = hint_for(game)
            text = format_hint(hint)
            assert len(text) < 2000 and len(text.splitlines()) <= 8
            decision = decide(game, Level.HARD)
            best = hint.recommended
            if isinstance(decision, RollDice):
                assert best.move is Move.ROLL
                game.roll_with(rng)
                continue
            if isinstance(decision, Keep):
                assert best.face is decision.face
            else:
                assert isinstance(decision, Claim) and best.claim == decision.option
            game.apply(decision)
    with pytest.raises(ValueError):
        hint_for(game)


def test_with_three_players_the_hint_tells_how_often_the_tile_would_be_stolen() -> None:
    # Bob, holding nothing, has 28 with one die left. With two opponents to move before
    # him, Hard stops, and the hint says how sure the 28 is: Carl's next turn worked out
    # as Hard weighs it (he steals it with an exact 28), Anne's turn by the measured rate.
    def bobs_hint(stacks: dict[str, list[int]]) -> str:
        game = position(stacks, current="bob")
        keep_rolls(game, ("44415WW3", "4"), ("WW153", "W"), ("153", "1"), ("53", "5"))
        return format_hint(hint_for(game), {"anne": "Anne", "carl": "Carl"})

    three = bobs_hint({"anne": [30], "bob": [], "carl": []})
    assert three.startswith("💡 Stop and take 28 (2🪱)")
    assert "• 28 on top of your stack: about a 1 in 10 chance it is stolen" in three
    game = position({"anne": [30], "bob": [], "carl": []}, current="bob")
    keep_rolls(game, ("44415WW3", "4"), ("WW153", "W"), ("153", "1"), ("53", "5"))
    hint = hint_for(game)
    assert hint.stop is not None
    carls = taken_by_the_next_player(Position.from_game(game, Objective.WIN), hint.stop)
    assert carls is not None and 0.0 < carls < STEALS[28]
    assert hint.stop_stolen == pytest.approx(carls + (1 - carls) * STEALS[28])
    # With one opponent the look-ahead weighs the steal itself; nothing to tell.
    two = bobs_hint({"anne": [30], "bob": []})
    assert "• Stop now: take 28 (2🪱)" in two and "on top of your stack" not in two
