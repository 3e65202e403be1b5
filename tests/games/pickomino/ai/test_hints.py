import random

import pytest

from bot.games.pickomino.ai.hints import format_hint, hint_for
from bot.games.pickomino.ai.players import Level, RollDice, decide
from bot.games.pickomino.ai.policy import Move
from bot.games.pickomino.engine import Claim, Face, Game, Keep, Roll, Source
from tests.games.pickomino.engine.helpers import faces, position


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
    assert worm.expected_worms == pytest.approx(1.028374, abs=1e-6)
    assert worm.tile_chance == pytest.approx(0.939600, abs=1e-6)
    assert hint.recommended.move is Move.KEEP_ROLL and hint.recommended.face is Face.WORM
    assert hint.expected_worms == worm.expected_worms
    assert hint.roll is None and hint.stop is None  # a face must be kept first
    assert format_hint(hint) == (
        "💡 Best: keep 1× worm, then roll (+1.03 worms expected)\n"
        "• Keep 1× worm → 17: +1.03 worms, tile 94%\n"
        "• Keep 2× 5 → 22: +0.65 worms, tile 60%\n"
        "• Keep 1× 3 → 15: +0.39 worms, tile 67%\n"
        "• Keep 1× 1 → 13: +0.19 worms, tile 68%"
    )


def test_hint_to_stop_rather_than_roll_the_last_die() -> None:
    game = thomas_game()
    game.apply(Keep(Face.WORM))
    for dice, keep in (("55WW", Face.FIVE), ("31", Face.THREE)):
        game.apply(Roll(faces(dice)))
        game.apply(Keep(keep))
    hint = hint_for(game)  # 30 kept, one die left: a 1 or a 2, or lose the 25
    assert hint.stop is not None and hint.stop.tile == 30
    assert hint.roll is not None and hint.roll.expected_worms == pytest.approx(-1 / 3)
    assert hint.roll.tile_chance == pytest.approx(2 / 6)
    assert format_hint(hint) == (
        "💡 Best: stop and take 30 (3🪱)\n"
        "• Roll 1 die: -0.33 worms, tile 33%\n"
        "• Stop now: take 30 (3🪱)"
    )
    game.apply(Roll(faces("2")))
    hint = hint_for(game)
    assert hint.recommended.claim is not None
    assert hint.recommended.claim.source is Source.STEAL
    assert format_hint(hint, {"anne": "Anne"}) == (
        "💡 Best: keep 1× 2, then take 32 from Anne (3🪱)\n"
        "• Keep 1× 2 → 32, take 32 from Anne (3🪱): +3.00 worms"
    )


def test_hint_for_a_keep_that_fails() -> None:
    game = position({"anne": [], "bob": [33]}, current="bob")
    for dice, keep in (("11122234", "1"), ("22234", "2"), ("34", "3")):
        game.apply(Roll(faces(dice)))
        game.apply(Keep(Face.parse(keep)))
    game.apply(Roll(faces("4")))
    hint = hint_for(game)
    (keep,) = hint.keeps
    assert keep.fails and keep.expected_worms == -4.0 and keep.tile_chance == 0.0
    assert format_hint(hint) == (
        "💡 Best: keep 1× 4: the turn fails (-4.00 worms)\n• Keep 1× 4 → 16: fails, -4.00 worms"
    )


def test_hint_when_the_turn_ended_by_itself() -> None:
    game = position({"anne": [], "bob": []}, current="bob")
    game.apply(Roll(faces("WWWW5555")))
    game.apply(Keep(Face.WORM))
    game.apply(Roll(faces("5555")))
    game.apply(Keep(Face.FIVE))  # 40: every die kept
    hint = hint_for(game)
    assert hint.roll is None and hint.stop is not None and hint.stop.tile == 36
    assert format_hint(hint) == "💡 Best: stop and take 36 (4🪱)\n• Stop now: take 36 (4🪱)"


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
