"""Every bullet of RULES.md's "Extrawurm expansion", one test per rule, on the engine."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.pickomino.engine import (
    SETUP_TILES,
    AcceptFailure,
    BratwurmGained,
    BratwurmReason,
    Claim,
    ClaimOption,
    Face,
    Failed,
    Game,
    GameOver,
    HenStolen,
    IllegalAction,
    Keep,
    LowerTile,
    NinthDie,
    Phase,
    PlayerLeft,
    Roll,
    Rolled,
    Rules,
    Specialist,
    SpecialistGained,
    SpecialistLeft,
    SpecialistReturned,
    Stole,
    Took,
    Weasel,
    WeaselRolled,
)
from bot.games.pickomino.engine.events import FailReason
from bot.games.pickomino.engine.serialization import game_from_dict, game_to_dict
from tests.games.pickomino.engine.helpers import faces, keep_rolls, position

EXTRAWURM = Rules(extrawurm=True)
CAN, HEN, WEASEL, RAVEN, GOLDEN = (
    Specialist.CANNED_WORM,
    Specialist.HEN,
    Specialist.WEASEL,
    Specialist.RAVEN,
    Specialist.GOLDEN_DIE,
)


def extrawurm(stacks: dict[str, list[int]], **kwargs: Any) -> Game:
    """An Extrawurm position: tiles not placed elsewhere are on the grill."""
    return position(stacks, rules=kwargs.pop("rules", EXTRAWURM), **kwargs)


def places(game: Game) -> dict[Specialist, Any]:
    assert game.expansion is not None
    return dict(game.expansion.specialists)


def fail_by_roll(game: Game) -> list:
    """The player to move keeps two worms, then rolls only worms again: a failure."""
    dice = game.dice_left
    events = keep_rolls(game, ("WW" + "1234512345"[: dice - 2], "W"))
    return events + game.apply(Roll(faces("W" * (dice - 2))))


def take_with_two_worms(game: Game, rest: str, keep: str) -> list:
    """Keep two worms (10), then `keep` from `rest` (6 dice); return the events."""
    return keep_rolls(game, ("WW122345", "W"), (rest, keep))


# ------------------------------------------------------------- setup


def test_setup_puts_11_and_13_on_the_grill_and_the_specialists_on_their_tiles() -> None:
    game = Game(["anne", "bob"], EXTRAWURM)
    assert game.grill == [11, 13, *range(21, 37)]
    assert places(game) == {CAN: 11, HEN: 21, WEASEL: 23, RAVEN: 25, GOLDEN: 27}
    assert places(game) == SETUP_TILES


def test_the_bratwurm_supply_starts_with_seven_tokens() -> None:
    game = Game(["anne", "bob"], EXTRAWURM)
    assert game.expansion is not None and game.expansion.supply == 7
    assert game.bratwurms("anne") == game.bratwurms("bob") == 0


def test_the_extrawurm_option_is_stored_with_the_game_and_combines_with_the_others() -> None:
    rules = Rules.from_dict({"extrawurm": True, "lower_tile": "any", "flip_on_empty_failure": True})
    assert rules.extrawurm and rules.flip_on_empty_failure
    game = Game(["anne", "bob"], rules)
    loaded = game_from_dict(game_to_dict(game))
    assert loaded.rules == rules and loaded == game
    assert Rules().extrawurm is False


# ------------------------------------------------------------- 11 and 13


def test_an_extra_tile_is_taken_only_with_exactly_its_total_and_a_kept_worm() -> None:
    game = extrawurm({"anne": [], "bob": []})
    keep_rolls(game, ("W3345555", "W"), ("2223345", "2"))  # 5 + 6 = 11
    assert game.claim_options() == [ClaimOption.grill(11)]
    events = game.apply(Claim(ClaimOption.grill(11)))
    assert events[0] == Took("anne", 11, 11)
    game = extrawurm({"anne": [], "bob": []})
    keep_rolls(game, ("W3345555", "W"), ("1123345", "1"))  # 5 + 2 = 7, then...
    keep_rolls(game, ("22345", "2"))  # ...+ 4 = 11 exactly, with a worm
    assert game.claim_options() == [ClaimOption.grill(11)]
    game = extrawurm({"anne": [], "bob": []})
    keep_rolls(game, ("33345555", "3"), ("22345", "2"))  # 13 but no worm, no can
    assert game.claim_options() == []


def test_an_extra_tile_is_taken_with_the_canned_worm_instead_of_a_worm() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={CAN: "anne"})
    keep_rolls(game, ("22233455", "2"))  # 6 + the can's 5 = 11
    assert game.claim_options() == [ClaimOption.grill(11)]


def test_extra_tiles_lie_beside_the_stack_never_on_top_stolen_returned_or_turned() -> None:
    game = extrawurm({"anne": [], "bob": []}, extras={"anne": [13]}, current="bob")
    assert game.top_tile("anne") is None and game.extras("anne") == [13]
    keep_rolls(game, ("WW122345", "W"), ("333245", "3"))  # 13: anne's, beside her stack
    assert game.claim_options() == []  # never stolen; 13 is not on the grill either
    game = extrawurm({"anne": [], "bob": []}, extras={"anne": [13]})
    events = fail_by_roll(game)
    failed = next(event for event in events if isinstance(event, Failed))
    assert failed.returned is None and failed.turned is None
    assert game.extras("anne") == [13] and 13 not in game.face_down


def test_a_player_holding_one_extra_tile_may_not_take_the_other() -> None:
    game = extrawurm({"anne": [], "bob": []}, extras={"anne": [11]}, specialists={CAN: None})
    keep_rolls(game, ("WW122345", "W"), ("333245", "3"))  # 13 exactly, with worms
    assert game.claim_options() == []
    with pytest.raises(IllegalAction, match="one_extra"):
        game.apply(Claim(ClaimOption.grill(13)))


def test_extra_tiles_are_not_part_of_the_next_lower_rule() -> None:
    game = extrawurm({"anne": [], "bob": []})
    keep_rolls(game, ("WW122345", "W"), ("552344", "5"))  # 20: 13 is face up below it
    assert game.claim_options() == []
    game = extrawurm({"anne": [], "bob": []}, rules=Rules(extrawurm=True, lower_tile=LowerTile.ANY))
    keep_rolls(game, ("WWW12234", "W"), ("55512", "5"))  # 30: any lower tile, not 11 or 13
    assert {option.tile for option in game.claim_options()} == set(range(21, 31))


def test_the_game_ends_when_no_tile_of_21_to_36_is_face_up_whatever_11_or_13_lie_there() -> None:
    game = extrawurm(
        {"anne": [], "bob": []},
        face_down=tuple(range(22, 37)),
        specialists={HEN: None, WEASEL: None, RAVEN: None, GOLDEN: None},
    )
    keep_rolls(game, ("WWWW1223", "W"), ("1223", "1"))  # 21 with worms
    events = game.apply(Claim(ClaimOption.grill(21)))
    assert isinstance(events[-1], GameOver) and game.is_over
    assert game.grill == [11, 13]


# ------------------------------------------------------------- specialists move


def test_taking_a_grill_tile_with_a_specialist_gives_its_holder_that_specialist() -> None:
    game = extrawurm({"anne": [], "bob": []})
    events = keep_rolls(game, ("WWW12234", "W"), ("44412", "4"))  # 27, the Golden Die's
    events = game.apply(Claim(ClaimOption.grill(27)))
    assert events[:2] == [Took("anne", 27, 27), SpecialistGained("anne", GOLDEN, 27)]
    assert game.specialist_of("anne") is GOLDEN


def test_a_player_holds_one_specialist_and_gaining_a_new_one_sends_the_old_one_back() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={CAN: "anne"})
    keep_rolls(game, ("WWW12234", "W"), ("44412", "4"))  # 27
    events = game.apply(Claim(ClaimOption.grill(27)))
    assert SpecialistReturned(CAN, 11, "anne") in events
    assert places(game)[CAN] == 11 and game.specialist_of("anne") is GOLDEN


def test_a_failure_sends_the_specialist_back_whether_or_not_a_tile_was_returned() -> None:
    for stack in ([30], []):
        game = extrawurm({"anne": stack, "bob": []}, specialists={CAN: "anne"})
        events = fail_by_roll(game)
        assert SpecialistReturned(CAN, 11, "anne") in events
        assert game.specialist_of("anne") is None


def test_back_means_the_lowest_face_up_grill_tile_with_no_specialist_11_and_13_included() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={GOLDEN: "anne"})
    events = fail_by_roll(game)
    assert SpecialistReturned(GOLDEN, 13, "anne") in events  # 11 carries the Canned Worm


def test_with_no_free_face_up_grill_tile_a_specialist_leaves_the_game() -> None:
    game = extrawurm(
        {"anne": [], "bob": []},
        extras={"anne": [11], "bob": [13]},
        face_down=tuple(tile for tile in range(21, 37) if tile not in (21, 23, 25)),
        specialists={CAN: "anne", HEN: 21, WEASEL: 23, RAVEN: 25, GOLDEN: None},
    )
    events = fail_by_roll(game)
    assert SpecialistLeft(CAN, "anne") in events
    assert places(game)[CAN] is None


def test_a_specialist_on_a_grill_tile_turned_face_down_moves_back() -> None:
    game = extrawurm({"anne": [30], "bob": []}, specialists={GOLDEN: 36})
    events = fail_by_roll(game)
    assert events[-1] == SpecialistReturned(GOLDEN, 13, None)
    assert game.face_down == [36]


# ------------------------------------------------------------- Canned Worm


def test_the_canned_worm_counts_one_worm_worth_5_when_no_worm_die_is_kept() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={CAN: "anne"})
    keep_rolls(game, ("55512344", "5"), ("44123", "4"))  # 23 + the can's 5 = 28
    assert game.claim_total == 28
    assert game.claim_options() == [ClaimOption.grill(28)]
    assert game.apply(Claim(ClaimOption.grill(28)))[0] == Took("anne", 28, 28)


def test_the_canned_worm_adds_nothing_with_a_worm_die_kept() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={CAN: "anne"})
    keep_rolls(game, ("WWW12234", "W"), ("44412", "4"))  # 27, not 32
    assert game.claim_total == 27 and game.claim_options() == [ClaimOption.grill(27)]


def test_the_canned_worm_counts_at_a_claim_of_a_turn_that_ended_by_itself() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={CAN: "anne"})
    keep_rolls(game, ("55551234", "5"), ("4444", "4"))  # all 8 kept, 36 + 5 = 41
    assert game.phase is Phase.CLAIM
    assert game.claim_options() == [ClaimOption.grill(36)]


def test_the_canned_worm_does_nothing_for_a_roll_with_no_new_face() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={CAN: "anne"})
    keep_rolls(game, ("55512344", "5"), ("44123", "4"))
    events = game.apply(Roll(faces("455")))
    assert isinstance(events[1], Failed) and events[1].reason is FailReason.NO_NEW_FACE


# ------------------------------------------------------------- Sitting Hen


def test_the_sitting_hen_goes_back_instead_of_the_top_tile_and_the_highest_is_turned() -> None:
    game = extrawurm({"anne": [25, 30], "bob": []}, specialists={HEN: "anne", RAVEN: 26})
    events = fail_by_roll(game)
    failed = next(event for event in events if isinstance(event, Failed))
    assert failed.returned is None and failed.turned == 36
    assert game.stacks["anne"] == [25, 30]
    assert SpecialistReturned(HEN, 13, "anne") in events


def test_a_total_matching_the_hen_holders_top_tile_steals_the_hen_not_the_tile() -> None:
    game = extrawurm({"anne": [], "bob": [30]}, specialists={HEN: "bob"})
    keep_rolls(game, ("WWW12234", "W"), ("55512", "5"))  # 30, bob's top tile
    assert game.is_hen_steal(ClaimOption.steal(30, "bob"))
    events = game.apply(Claim(ClaimOption.steal(30, "bob")))
    assert events[0] == HenStolen("anne", "bob", 30)
    assert not any(isinstance(event, Stole) for event in events)
    assert game.stacks == {"anne": [], "bob": [30]}
    assert game.specialist_of("anne") is HEN and game.specialist_of("bob") is None


def test_a_hen_steal_sends_the_thiefs_own_specialist_back() -> None:
    game = extrawurm({"anne": [], "bob": [30]}, specialists={HEN: "bob", WEASEL: "anne"})
    keep_rolls(game, ("WWW12234", "W"), ("55512", "5"))
    events = game.apply(Claim(ClaimOption.steal(30, "bob")))
    assert events[1] == SpecialistReturned(WEASEL, 13, "anne")


def test_a_hen_holder_without_tiles_loses_the_hen_on_a_failure_like_any_specialist() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={HEN: "anne"})
    events = fail_by_roll(game)
    failed = next(event for event in events if isinstance(event, Failed))
    assert failed.returned is None and failed.turned is None  # no flip without the option
    assert SpecialistReturned(HEN, 13, "anne") in events


# ------------------------------------------------------------- Weasel


def test_the_weasel_rolls_the_same_dice_again_once_a_turn_right_after_a_roll() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={WEASEL: "anne"})
    game.apply(Roll(faces("11223344")))
    assert game.legal_actions().can_weasel
    events = game.apply(Weasel(faces("WW123455")))
    assert events == [WeaselRolled("anne", faces("WW123455"))]
    assert not game.legal_actions().can_weasel
    with pytest.raises(IllegalAction, match="weasel_once"):
        game.apply(Weasel(faces("WW123455")))
    game.apply(Keep(Face.WORM))
    game.apply(Roll(faces("123455")))
    assert not game.legal_actions().can_weasel  # used already this turn


def test_the_weasel_is_only_for_its_holder_and_only_before_keeping() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={WEASEL: "bob"})
    game.apply(Roll(faces("11223344")))
    assert not game.legal_actions().can_weasel
    with pytest.raises(IllegalAction, match="weasel_holder"):
        game.apply(Weasel(faces("WW123455")))
    game = extrawurm({"anne": [], "bob": []}, specialists={WEASEL: "anne"})
    with pytest.raises(IllegalAction, match="weasel_timing"):
        game.apply(Weasel(faces("WW123455")))


def test_the_weasel_may_turn_a_roll_with_no_new_face_into_a_playable_one() -> None:
    game = extrawurm({"anne": [30], "bob": []}, specialists={WEASEL: "anne"})
    keep_rolls(game, ("WW122345", "W"))
    events = game.apply(Roll(faces("WWWWWW")))
    assert events == [Rolled("anne", faces("WWWWWW"))]
    assert game.phase is Phase.NO_NEW_FACE
    legal = game.legal_actions()
    assert legal.can_weasel and legal.can_accept_failure and not legal.can_roll
    with pytest.raises(IllegalAction, match="no_new_face_keep"):
        game.apply(Keep(Face.WORM))
    game.apply(Weasel(faces("555123")))
    assert game.keepable_faces() == faces("1235")
    assert game.stacks["anne"] == [30]


def test_a_roll_with_no_new_face_fails_only_when_the_player_takes_it_as_it_is() -> None:
    game = extrawurm({"anne": [30], "bob": []}, specialists={WEASEL: "anne"})
    fail_by_roll(game)
    assert game.current_player == "anne" and game.stacks["anne"] == [30]
    events = game.apply(AcceptFailure())
    assert events[0] == Failed("anne", FailReason.NO_NEW_FACE, 30, 36)
    assert game.current_player == "bob"


def test_a_weasel_roll_with_no_new_face_is_a_failure_at_once() -> None:
    game = extrawurm({"anne": [30], "bob": []}, specialists={WEASEL: "anne"})
    fail_by_roll(game)
    events = game.apply(Weasel(faces("WWWWWW")))
    assert isinstance(events[1], Failed) and game.current_player == "bob"


def test_a_roll_with_no_new_face_fails_at_once_without_the_weasel() -> None:
    game = extrawurm({"anne": [30], "bob": []}, specialists={WEASEL: "bob"})
    events = fail_by_roll(game)
    assert any(isinstance(event, Failed) for event in events)
    assert game.current_player == "bob"
    with pytest.raises(IllegalAction):
        game.apply(AcceptFailure())


# ------------------------------------------------------------- Raven


def test_the_ravens_taker_keeps_the_tile_and_takes_a_bratwurm_from_the_supply() -> None:
    game = extrawurm({"anne": [], "bob": []})
    keep_rolls(game, ("WWW12234", "W"), ("55124", "5"))  # 25, the Raven's
    events = game.apply(Claim(ClaimOption.grill(25)))
    assert events[:3] == [
        Took("anne", 25, 25),
        BratwurmGained("anne", BratwurmReason.RAVEN, None),
        SpecialistReturned(RAVEN, 13, None),
    ]
    assert game.stacks["anne"] == [25] and game.bratwurms("anne") == 1
    assert game.expansion is not None and game.expansion.supply == 6


def test_taking_the_raven_is_not_gaining_a_specialist() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={WEASEL: "anne"})
    keep_rolls(game, ("WWW12234", "W"), ("55124", "5"))
    game.apply(Claim(ClaimOption.grill(25)))
    assert game.specialist_of("anne") is WEASEL
    assert isinstance(places(game)[RAVEN], int)


def test_with_an_empty_supply_the_raven_takes_from_the_other_player_holding_most() -> None:
    players = {"anne": [], "bob": [], "cara": [], "dan": []}
    game = extrawurm(players, current="cara", bratwurms={"anne": 3, "bob": 3, "dan": 1}, supply=0)
    keep_rolls(game, ("WWW12234", "W"), ("55124", "5"))
    events = game.apply(Claim(ClaimOption.grill(25)))
    # anne and bob hold most; after cara in seat order comes dan, then anne.
    assert BratwurmGained("cara", BratwurmReason.RAVEN, "anne") in events
    assert game.bratwurms("anne") == 2 and game.bratwurms("cara") == 1


def test_with_no_bratwurm_in_the_supply_or_with_another_player_the_taker_gets_none() -> None:
    game = extrawurm({"anne": [], "bob": []}, bratwurms={"anne": 7}, supply=0)
    keep_rolls(game, ("WWW12234", "W"), ("55124", "5"))
    events = game.apply(Claim(ClaimOption.grill(25)))
    assert not any(isinstance(event, BratwurmGained) for event in events)
    assert game.bratwurms("anne") == 7


def test_the_raven_moves_to_the_lowest_free_grill_tile_once_the_tile_has_left() -> None:
    game = extrawurm(
        {"anne": [], "bob": []},
        extras={"bob": [13]},
        specialists={CAN: None, HEN: 22, WEASEL: 23, RAVEN: 21, GOLDEN: 24},
    )
    keep_rolls(game, ("WWWW1223", "W"), ("1223", "1"))  # 21, the Raven's tile
    events = game.apply(Claim(ClaimOption.grill(21)))
    assert SpecialistReturned(RAVEN, 11, None) in events


# ------------------------------------------------------------- Golden Die


def test_the_golden_dies_holder_rolls_nine_dice_and_all_nine_must_be_kept() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={GOLDEN: "anne"})
    assert game.dice_left == 9
    with pytest.raises(IllegalAction, match=r"dice_count \(count=9, given=8\)"):
        game.apply(Roll(faces("WWW55554")))
    events = game.apply(Roll(faces("WWW555544")))
    assert events[0] == NinthDie("anne")
    game.apply(Keep(Face.FIVE))
    keep_rolls(game, ("WWW44", "W"))
    assert game.phase is Phase.ROLL and game.dice_left == 2  # 7 of 9 kept: not over
    keep_rolls(game, ("44", "4"))
    assert game.phase is Phase.CLAIM


def test_the_golden_die_counts_from_the_start_of_the_holders_next_turn() -> None:
    game = extrawurm({"anne": [], "bob": []})
    keep_rolls(game, ("WWW12234", "W"), ("44412", "4"))  # 27, the Golden Die's
    game.apply(Claim(ClaimOption.grill(27)))
    assert game.dice_left == 8  # bob
    fail_by_roll(game)
    assert game.current_player == "anne" and game.dice_left == 9


# ------------------------------------------------------------- Bratwurms


def test_two_or_more_ones_kept_at_once_give_a_bratwurm_kept_even_if_the_turn_fails() -> None:
    game = extrawurm({"anne": [], "bob": []})
    events = keep_rolls(game, ("11123455", "1"))
    assert events[-1] == BratwurmGained("anne", BratwurmReason.ONES, None)
    keep_rolls(game, ("W2345", "W"))
    game.apply(Roll(faces("1W11")))  # nothing new: a failure
    assert game.current_player == "bob" and game.bratwurms("anne") == 1


def test_a_single_one_or_an_empty_supply_gives_no_bratwurm() -> None:
    game = extrawurm({"anne": [], "bob": []})
    events = keep_rolls(game, ("12345555", "1"))
    assert not any(isinstance(event, BratwurmGained) for event in events)
    game = extrawurm({"anne": [], "bob": []}, bratwurms={"bob": 7}, supply=0)
    events = keep_rolls(game, ("11123455", "1"))
    assert not any(isinstance(event, BratwurmGained) for event in events)


def test_after_a_weasel_reroll_the_ones_counted_are_those_of_the_roll_kept_from() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={WEASEL: "anne"})
    game.apply(Roll(faces("11123455")))
    game.apply(Weasel(faces("12345555")))
    events = game.apply(Keep(Face.ONE))
    assert not any(isinstance(event, BratwurmGained) for event in events)


def test_a_score_is_the_worms_on_every_tile_11_and_13_included_plus_the_bratwurms() -> None:
    game = extrawurm(
        {"anne": [25, 33], "bob": []},
        extras={"anne": [13]},
        specialists={RAVEN: 26},
        bratwurms={"anne": 2},
    )
    assert game.score("anne") == 2 + 4 + 1 + 2
    standing = next(s for s in game.standings() if s.player == "anne")
    assert standing.worms == 9 and standing.bratwurms == 2 and standing.tiles == (25, 33, 13)


def test_the_tie_break_counts_11_and_13_as_tiles() -> None:
    game = extrawurm({"anne": [], "bob": []}, extras={"anne": [13]}, bratwurms={"bob": 1})
    standings = game.standings()
    assert game.score("anne") == game.score("bob") == 1
    assert [(s.rank, s.player) for s in standings] == [(1, "anne"), (2, "bob")]


# ------------------------------------------------------------- exact order of events


def test_a_failing_players_specialist_may_land_on_the_tile_just_returned() -> None:
    game = extrawurm(
        {"anne": [22], "bob": []},
        extras={"anne": [11], "bob": [13]},
        specialists={CAN: None, HEN: 21, WEASEL: "anne"},
    )
    events = fail_by_roll(game)
    events += game.apply(AcceptFailure())
    assert SpecialistReturned(WEASEL, 22, "anne") in events
    failed = next(event for event in events if isinstance(event, Failed))
    assert failed.returned == 22 and failed.turned == 36


def test_the_old_specialist_never_goes_back_onto_the_tile_just_taken() -> None:
    game = extrawurm(
        {"anne": [], "bob": []},
        extras={"anne": [11], "bob": [13]},
        specialists={CAN: "anne", HEN: 22, WEASEL: 23, RAVEN: 24, GOLDEN: 21},
    )
    keep_rolls(game, ("WWWW1223", "W"), ("1223", "1"))  # 21, the Golden Die's
    events = game.apply(Claim(ClaimOption.grill(21)))
    assert SpecialistReturned(CAN, 25, "anne") in events


def test_holdings_never_change_inside_a_turn() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={GOLDEN: "anne"})
    game.apply(Roll(faces("WWW555544")))
    stored = game_from_dict(game_to_dict(game))
    assert stored.dice_left == 9 and stored == game


# ------------------------------------------------------------- actions as data


def test_expansion_actions_are_refused_in_a_base_game_and_change_nothing() -> None:
    game = Game(["anne", "bob"])
    game.apply(Roll(faces("11223344")))
    before = game.copy()
    for action in (Weasel(faces("WW123455")), AcceptFailure()):
        with pytest.raises(IllegalAction):
            game.apply(action)
    assert game == before


def test_a_leaving_player_returns_their_extra_tile_specialist_and_bratwurms() -> None:
    # RULES.md is silent here; the project's choice: everything goes back.
    game = extrawurm(
        {"anne": [], "bob": [30], "cara": []},
        extras={"bob": [13]},
        specialists={WEASEL: "bob"},
        bratwurms={"bob": 2},
    )
    events = game.remove_player("bob")
    assert events == [
        PlayerLeft("bob", (13, 30)),
        SpecialistReturned(WEASEL, 13, "bob"),
    ]
    assert 13 in game.grill and 30 in game.grill
    assert game.expansion is not None and game.expansion.supply == 7
