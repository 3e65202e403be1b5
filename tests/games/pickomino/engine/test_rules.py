"""Every rule and edge case of RULES.md, on the engine directly."""

from __future__ import annotations

import pytest

from bot.games.pickomino.engine import (
    Claim,
    ClaimOption,
    Face,
    Failed,
    Game,
    GameOver,
    IllegalAction,
    Keep,
    LowerTile,
    Phase,
    PlayerLeft,
    Roll,
    Rules,
    Stole,
    Took,
)
from bot.games.pickomino.engine.events import FailReason
from bot.games.pickomino.engine.serialization import game_to_dict
from tests.games.pickomino.engine.helpers import faces, keep_rolls, position


def test_a_fresh_game_has_every_tile_on_the_grill_and_only_a_roll_to_make() -> None:
    game = Game(["anne", "bob"])
    assert game.grill == list(range(21, 37))
    legal = game.legal_actions()
    assert legal.can_roll and not legal.keepable and not legal.claims


def test_keeping_a_face_keeps_every_die_showing_it() -> None:
    game = Game(["anne", "bob"])
    game.apply(Roll(faces("44412W35")))
    events = game.apply(Keep(Face.FOUR))
    assert game.kept == [Face.FOUR] * 3
    assert game.dice_left == 5
    assert events[0].count == 3 and events[0].total == 12


def test_the_worm_counts_five_points() -> None:
    game = Game(["anne", "bob"])
    keep_rolls(game, ("WW123345", "W"))
    assert game.kept_total == 10 and game.has_worm


def test_a_roll_showing_only_kept_faces_is_a_failure() -> None:
    game = position({"anne": [25], "bob": []})
    keep_rolls(game, ("33312WW4", "3"), ("WW124", "W"))
    events = game.apply(Roll(faces("W33")))
    assert isinstance(events[-1], Failed)
    assert events[-1].reason is FailReason.NO_NEW_FACE
    assert game.current_player == "bob"
    assert game.stacks["anne"] == []


def test_stopping_needs_a_kept_worm() -> None:
    game = Game(["anne", "bob"])
    keep_rolls(game, ("55555123", "5"))
    assert game.claim_options() == []
    with pytest.raises(IllegalAction, match="need_worm"):
        game.apply(Claim(ClaimOption.grill(25)))


def test_the_exact_grill_tile_is_the_only_grill_option() -> None:
    game = Game(["anne", "bob"])
    keep_rolls(game, ("WWW11234", "W"), ("55512", "5"))  # 15 + 15 = 30
    assert game.claim_options() == [ClaimOption.grill(30)]


def test_without_the_exact_tile_the_highest_lower_grill_tile_is_offered() -> None:
    game = position({"anne": [], "bob": [30]})
    keep_rolls(game, ("WWW11234", "W"), ("55512", "5"))  # 30, which bob holds under...
    game.stacks["bob"] = [30, 23]  # ...another tile, so no steal either
    assert game.claim_options() == [ClaimOption.grill(29)]


def test_the_any_lower_tile_option_offers_every_lower_grill_tile() -> None:
    rules = Rules(lower_tile=LowerTile.ANY)
    game = position({"anne": [], "bob": [23, 30]}, rules=rules, face_down=(22,))
    keep_rolls(game, ("WWW11234", "W"), ("55512", "5"), ("12", "1"))  # 31, on the grill
    # RULES.md: "even when S itself is face up": S first, then the lower ones.
    assert [option.tile for option in game.claim_options()] == [31, 29, 28, 27, 26, 25, 24, 21]
    game = position({"anne": [], "bob": [31, 23]}, rules=rules, face_down=(22,))
    keep_rolls(game, ("WWW11234", "W"), ("55512", "5"), ("12", "1"))  # 31: bob's, hidden
    assert [option.tile for option in game.claim_options()] == [30, 29, 28, 27, 26, 25, 24, 21]


def test_any_lower_tile_takes_a_lower_tile_even_when_the_exact_one_is_face_up() -> None:
    game = position({"anne": [], "bob": []}, rules=Rules(lower_tile=LowerTile.ANY))
    keep_rolls(game, ("WWW11234", "W"), ("55512", "5"))  # 30, face up on the grill
    assert game.claim_options()[:2] == [ClaimOption.grill(30), ClaimOption.grill(29)]
    events = game.apply(Claim(ClaimOption.grill(24)))
    assert events == [Took("anne", 24, 30)]
    assert game.stacks["anne"] == [24] and 30 in game.grill


def test_any_lower_tile_still_offers_a_steal_after_the_lower_tiles() -> None:
    game = position({"anne": [], "bob": [30]}, rules=Rules(lower_tile=LowerTile.ANY))
    keep_rolls(game, ("WWW11234", "W"), ("55512", "5"))  # 30: bob's top
    options = game.claim_options()
    assert options[0] == ClaimOption.grill(29) and options[-1] == ClaimOption.steal(30, "bob")


def test_steal_versus_lower_grill_tile_is_the_players_choice() -> None:
    for choice in (ClaimOption.steal(30, "bob"), ClaimOption.grill(29)):
        game = position({"anne": [], "bob": [30]})
        keep_rolls(game, ("WWW11234", "W"), ("55512", "5"))
        assert game.claim_options() == [ClaimOption.grill(29), ClaimOption.steal(30, "bob")]
        events = game.apply(Claim(choice))
        assert game.stacks["anne"] == [choice.tile]
        if choice.source == "steal":
            assert events[0] == Stole("anne", "bob", 30)
            assert game.stacks["bob"] == [] and 29 in game.grill
        else:
            assert events[0] == Took("anne", 29, 30)
            assert game.stacks["bob"] == [30]


def test_only_the_top_tile_of_a_stack_can_be_stolen() -> None:
    game = position({"anne": [], "bob": [30, 22]})
    keep_rolls(game, ("WWW11234", "W"), ("55512", "5"))
    assert ClaimOption.steal(30, "bob") not in game.claim_options()


def test_a_player_never_steals_from_their_own_stack() -> None:
    game = position({"anne": [30], "bob": []})
    keep_rolls(game, ("WWW11234", "W"), ("55512", "5"))
    assert game.claim_options() == [ClaimOption.grill(29)]
    with pytest.raises(IllegalAction, match="own_stack"):
        game.apply(Claim(ClaimOption.steal(30, "anne")))


def test_a_sum_above_36_takes_the_highest_grill_tile() -> None:
    game = position({"anne": [], "bob": []}, face_down=(36,))
    keep_rolls(game, ("WWWW1234", "W"), ("5555", "5"))  # 40
    assert game.claim_options() == [ClaimOption.grill(35)]


def test_the_turn_ends_by_itself_when_all_eight_dice_are_kept() -> None:
    game = Game(["anne", "bob"])
    keep_rolls(game, ("WWWW1234", "W"), ("5555", "5"))
    assert game.phase is Phase.CLAIM
    assert not game.legal_actions().can_roll
    with pytest.raises(IllegalAction, match="turn_done"):
        game.apply(Roll(()))
    game.apply(Claim(ClaimOption.grill(36)))
    assert game.stacks["anne"] == [36] and game.current_player == "bob"


def test_the_last_die_kept_ends_the_turn_with_a_claim_to_make() -> None:
    game = Game(["anne", "bob"])
    keep_rolls(game, ("12345WWW", "W"), ("12345", "5"), ("1234", "4"), ("123", "3"))
    keep_rolls(game, ("12", "2"))
    assert game.phase is Phase.ROLL and game.dice_left == 1
    keep_rolls(game, ("1", "1"))  # 15 + 5 + 4 + 3 + 2 + 1 = 30 on all 8 dice
    assert game.phase is Phase.CLAIM
    assert game.claim_options() == [ClaimOption.grill(30)]


def test_every_face_kept_with_a_die_still_unrolled_ends_the_turn() -> None:
    game = Game(["anne", "bob"])
    keep_rolls(game, ("1WWW2345", "1"), ("WWW2345", "2"), ("WWW345", "3"), ("WWW45", "4"))
    keep_rolls(game, ("WWW5", "5"), ("WWW", "W"))  # 1+2+3+4+5+15 = 30 on 8 dice
    assert game.phase is Phase.CLAIM
    game = Game(["anne", "bob"])
    keep_rolls(game, ("1WW23455", "1"), ("WW23455", "2"), ("WW3455", "3"), ("WW455", "4"))
    keep_rolls(game, ("WW55", "5"))
    assert game.dice_left == 2
    keep_rolls(game, ("W1", "W"))  # six faces kept, one die left unrolled
    assert game.dice_left == 1 and game.phase is Phase.CLAIM
    assert game.claim_options() == [ClaimOption.grill(25)]  # 1 + 2 + 3 + 4 + 10 + 5


def test_failure_returns_the_top_tile_and_turns_the_highest_grill_tile() -> None:
    game = position({"anne": [22, 25], "bob": []})
    events = keep_rolls(game, ("11111111", "1"))
    assert events[-1] == Failed("anne", FailReason.NO_WORM, returned=25, turned=36)
    assert game.stacks["anne"] == [22]
    assert 25 in game.grill and 36 in game.face_down and 36 not in game.grill


def test_failure_turns_nothing_when_the_returned_tile_is_the_highest() -> None:
    game = position({"anne": [36], "bob": []})
    events = keep_rolls(game, ("11111111", "1"))
    assert events[-1] == Failed("anne", FailReason.NO_WORM, returned=36, turned=None)
    assert game.grill == list(range(21, 37)) and game.face_down == []


@pytest.mark.parametrize(("flip", "turned"), [(False, None), (True, 36)])
def test_failure_with_nothing_to_return_follows_the_flip_option(
    flip: bool, turned: int | None
) -> None:
    game = Game(["anne", "bob"], Rules(flip_on_empty_failure=flip))
    events = keep_rolls(game, ("11111111", "1"))
    assert events[-1] == Failed("anne", FailReason.NO_WORM, returned=None, turned=turned)
    assert game.face_down == ([] if turned is None else [turned])


def test_all_dice_kept_with_a_worm_but_no_tile_low_enough_is_a_failure() -> None:
    game = Game(["anne", "bob"])
    events = keep_rolls(game, ("W1111111", "1"), ("W", "W"))  # 7 + 5 = 12
    assert events[-1].reason is FailReason.NO_TILE


def test_the_game_ends_when_the_last_grill_tile_goes() -> None:
    game = position({"anne": list(range(21, 36)), "bob": []}, current="bob")
    events = keep_rolls(game, ("WWWW1234", "W"), ("5555", "5"))
    events += game.apply(Claim(ClaimOption.grill(36)))
    assert game.is_over and game.grill == []
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.winners == ("anne",)
    with pytest.raises(IllegalAction, match="game_over"):
        game.apply(Roll(faces("12345WWW")))


def test_a_failure_that_turns_the_last_grill_tile_ends_the_game() -> None:
    game = position({"anne": [], "bob": list(range(22, 37))}, rules=Rules(True))
    events = keep_rolls(game, ("11111111", "1"))
    assert events[-2] == Failed("anne", FailReason.NO_WORM, returned=None, turned=21)
    assert isinstance(events[-1], GameOver) and game.is_over


def test_worms_win_and_the_highest_tile_breaks_a_tie() -> None:
    game = position({"anne": [21, 25], "bob": [29], "cleo": [22, 23, 24]})  # 3, 3, 3 worms
    standings = game.standings()
    assert [(s.rank, s.player, s.worms) for s in standings] == [
        (1, "bob", 3),
        (2, "anne", 3),
        (3, "cleo", 3),
    ]
    assert game._tie_break() == "highest_tile"


def test_players_with_no_tiles_share_their_place() -> None:
    game = position({"anne": [], "bob": [], "cleo": [21]})
    assert [(s.rank, s.player) for s in game.standings()] == [
        (1, "cleo"),
        (2, "anne"),
        (2, "bob"),
    ]
    nobody = position({"anne": [], "bob": []})
    assert [s.rank for s in nobody.standings()] == [1, 1]
    assert nobody._tie_break() == "shared"


def test_an_illegal_action_leaves_the_game_exactly_as_it_was() -> None:
    game = position({"anne": [30], "bob": [25]})
    keep_rolls(game, ("WWW11234", "W"))
    game.apply(Roll(faces("55512")))
    before = game_to_dict(game)
    illegal = [
        Keep(Face.FOUR),  # not in the roll
        Keep(Face.WORM),  # kept already
        Roll(faces("12345")),  # a face must be kept first
        Claim(ClaimOption.grill(21)),  # a face must be kept first
    ]
    for action in illegal:
        with pytest.raises(IllegalAction):
            game.apply(action)
        assert game_to_dict(game) == before


def test_a_roll_with_the_wrong_number_of_dice_is_refused() -> None:
    game = Game(["anne", "bob"])
    with pytest.raises(IllegalAction, match=r"dice_count \(count=8, given=7\)"):
        game.apply(Roll(faces("1234512")))
    assert game.roll is None


def test_roll_with_uses_the_injected_random_source() -> None:
    class Loaded:
        """Always the highest number, whose base-6 digits all read as the worm."""

        def randrange(self, stop):
            return stop - 1

    game = Game(["anne", "bob"])
    events = game.roll_with(Loaded())
    assert events[0].dice == (Face.WORM,) * 8
    assert game.keepable_faces() == (Face.WORM,)


def test_a_leaving_player_returns_every_tile_face_up() -> None:
    game = position({"anne": [22, 30], "bob": [25], "cleo": []}, face_down=(36,), current="bob")
    events = game.remove_player("anne")
    assert events == [PlayerLeft("anne", (22, 30))]
    assert 22 in game.grill and 30 in game.grill and 36 in game.face_down
    assert game.players == ["bob", "cleo"] and game.current_player == "bob"


def test_the_player_to_move_leaving_passes_the_turn_on() -> None:
    game = position({"anne": [], "bob": [], "cleo": []}, current="cleo")
    keep_rolls(game, ("WWW11234", "W"))
    game.remove_player("cleo")
    assert game.current_player == "anne" and game.kept == [] and game.phase is Phase.ROLL


def test_fewer_than_two_players_left_abandons_the_game() -> None:
    game = position({"anne": [25], "bob": [26]})
    events = game.remove_player("bob")
    assert game.is_over and game.abandoned
    assert isinstance(events[-1], GameOver) and events[-1].abandoned
    assert events[-1].winners == ()


def test_a_timeout_takes_the_best_claim_when_there_is_one() -> None:
    game = position({"anne": [], "bob": [30]})
    keep_rolls(game, ("WWW11234", "W"), ("55512", "5"))
    events = game.end_turn_on_timeout()
    assert events[0] == Stole("anne", "bob", 30)


def test_a_timeout_without_a_claim_is_a_failure() -> None:
    game = position({"anne": [27], "bob": []})
    game.apply(Roll(faces("1234WW55")))
    events = game.end_turn_on_timeout()
    assert events[0] == Failed("anne", FailReason.TIMEOUT, returned=27, turned=36)
