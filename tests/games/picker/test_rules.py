"""Each rule of RULES.md's Picker section, with pinned dice."""

from __future__ import annotations

import random

import pytest

from bot.games.picker.engine import (
    AllEqual,
    BecamePicker,
    Colour,
    Game,
    GameOver,
    IllegalMove,
    InvalidState,
    Phase,
    Pick,
    Picked,
    PlayerLeft,
    RollDice,
    Rolled,
    RoundOver,
    colour_bonus,
    colour_sets,
    colours_in_play,
    total_bonus,
)
from tests.games.picker.helpers import pick_all, random_step, seats

RED, ORANGE, YELLOW, GREEN = Colour.RED, Colour.ORANGE, Colour.YELLOW, Colour.GREEN


@pytest.mark.parametrize("count", [2, 9])
def test_three_to_eight_players(count: int) -> None:
    with pytest.raises(InvalidState):
        Game([f"p{seat}" for seat in range(count)])


def test_a_player_sits_once() -> None:
    with pytest.raises(InvalidState):
        Game(["anne", "bob", "anne"])


def test_one_die_per_player_in_the_fixed_colour_order() -> None:
    assert colours_in_play(3) == (RED, ORANGE, YELLOW)
    assert [str(c) for c in colours_in_play(8)] == [
        "red", "orange", "yellow", "green", "blue", "purple", "white", "black"
    ]  # fmt: skip
    assert Game(seats(5)).colours == colours_in_play(5)


def test_a_roll_has_one_die_per_seat() -> None:
    game = Game(seats(3))
    with pytest.raises(IllegalMove) as refused:
        game.apply(RollDice((1, 2)))
    assert refused.value.key == "picker.illegal.dice_count"
    assert refused.value.params == {"expected": 3, "count": 2}


@pytest.mark.parametrize("value", [0, 7, True, 2.0, "3"])
def test_a_die_shows_1_to_6(value: object) -> None:
    game = Game(seats(3))
    with pytest.raises(IllegalMove) as refused:
        game.apply(RollDice((1, 2, value)))  # type: ignore[arg-type]
    assert refused.value.key == "picker.illegal.die_value"


def test_all_dice_equal_are_rolled_again() -> None:
    game = Game(seats(3))
    events = game.apply(RollDice((4, 4, 4)))
    assert events == [Rolled(1, (4, 4, 4)), AllEqual(1, 4)]
    assert game.phase is Phase.ROLL
    with pytest.raises(IllegalMove):
        game.apply(Pick(RED))
    assert game.apply(RollDice((4, 4, 5))) == [Rolled(1, (4, 4, 5))]
    assert game.phase is Phase.PICK


def test_roll_with_rolls_again_until_two_dice_differ() -> None:
    class Scripted:
        """Returns a scripted sequence of floats: first all dice 3, then 1, 2, 3."""

        def __init__(self) -> None:
            self.values = iter([0.4, 0.4, 0.4, 0.0, 0.2, 0.4])

        def random(self) -> float:
            return next(self.values)

    game = Game(seats(3))
    events = game.roll_with(Scripted())
    assert events == [Rolled(1, (3, 3, 3)), AllEqual(1, 3), Rolled(1, (1, 2, 3))]
    assert game.dice == (1, 2, 3)


def test_picks_go_round_the_table_from_the_first_player() -> None:
    game = Game(seats(4), first=2)
    game.apply(RollDice((1, 2, 3, 4)))
    order = []
    for colour in (GREEN, YELLOW, ORANGE, RED):
        order.append(game.current_player)
        game.apply(Pick(colour))
    assert order == ["cara", "dan", "anne", "bob"]


def test_a_player_scores_the_number_and_records_the_colour() -> None:
    game = Game(seats(3))
    events = pick_all(game, [2, 6, 5], [ORANGE])
    assert events[-1] == Picked("anne", ORANGE, 6)
    assert game.points["anne"] == 6
    assert game.colours_kept("anne") == [ORANGE]


def test_every_die_is_kept_once() -> None:
    game = Game(seats(3))
    pick_all(game, [2, 6, 5], [ORANGE])
    with pytest.raises(IllegalMove) as refused:
        game.apply(Pick(ORANGE))
    assert refused.value.key == "picker.illegal.colour_taken"
    assert game.available() == (RED, YELLOW)


def test_a_colour_not_in_play_or_unknown_is_refused() -> None:
    game = Game(seats(3))
    game.apply(RollDice((1, 2, 3)))
    with pytest.raises(IllegalMove) as refused:
        game.apply(Pick(GREEN))
    assert refused.value.key == "picker.illegal.colour_not_in_play"
    with pytest.raises(IllegalMove) as refused:
        game.apply(Pick("pink"))  # type: ignore[arg-type]
    assert refused.value.key == "picker.illegal.unknown_colour"


def test_keeping_before_the_roll_and_rolling_twice_are_refused() -> None:
    game = Game(seats(3))
    with pytest.raises(IllegalMove) as refused:
        game.apply(Pick(RED))
    assert refused.value.key == "picker.illegal.roll_first"
    game.apply(RollDice((1, 2, 3)))
    with pytest.raises(IllegalMove) as refused:
        game.apply(RollDice((1, 2, 3)))
    assert refused.value.key == "picker.illegal.rolled_already"


def test_the_first_to_keep_the_lowest_number_keeps_first_next_round() -> None:
    game = Game(seats(3))  # anne first
    events = pick_all(game, [5, 3, 6], [YELLOW, ORANGE, RED])
    assert BecamePicker("bob", 3) in events
    assert events[-1] == RoundOver(1, "bob")
    assert game.first_player == "bob"


def test_of_two_lowest_dice_only_the_first_kept_makes_the_picker() -> None:
    # The seed's clarification: two 1s; whoever keeps a 1 first is the Picker.
    game = Game(seats(4))
    events = pick_all(game, [1, 6, 1, 4], [ORANGE, RED, GREEN, YELLOW])
    assert [e for e in events if isinstance(e, BecamePicker)] == [BecamePicker("bob", 1)]
    assert game.first_player == "bob"


def test_the_picker_is_about_the_lowest_number_shown_not_kept_so_far() -> None:
    # A 2 kept while a 1 is still on the table makes nobody the Picker.
    game = Game(seats(3))
    events = pick_all(game, [2, 1, 5], [RED, YELLOW, ORANGE])
    assert [e.player for e in events if isinstance(e, BecamePicker)] == ["cara"]


def test_two_rounds_per_player() -> None:
    game = Game(seats(3))
    rng = random.Random(4)
    rounds_over = 0
    while not game.is_over:
        rounds_over += sum(isinstance(e, RoundOver) for e in random_step(game, rng))
    assert rounds_over == game.round == 6


@pytest.mark.parametrize(
    ("times", "bonus"), [(0, 0), (1, 0), (2, 3), (3, 6), (4, 9), (5, 12), (6, 15), (9, 15)]
)
def test_colour_bonus_table(times: int, bonus: int) -> None:
    assert colour_bonus(times) == bonus


def test_several_colours_each_give_a_bonus() -> None:
    kept = [RED] * 3 + [YELLOW] * 5 + [GREEN]
    assert total_bonus(kept) == 18  # the seed's example: 6 + 12
    assert [(s.colour, s.count, s.bonus) for s in colour_sets(kept)] == [
        (RED, 3, 6),
        (YELLOW, 5, 12),
    ]


def test_game_over_with_shared_places_and_bonus_breakdown() -> None:
    game = Game(seats(3))
    events = []
    for _ in range(6):
        # The same dice every round, and each seat keeps its own colour; anne keeps
        # first every round since she keeps the first 3.
        events = pick_all(game, [3, 3, 4], [RED, ORANGE, YELLOW])
    over = events[-1]
    assert isinstance(over, GameOver) and game.is_over
    assert [(s.player, s.rank, s.points, s.bonus) for s in over.standings] == [
        ("cara", 1, 24, 15),
        ("anne", 2, 18, 15),
        ("bob", 2, 18, 15),
    ]
    assert over.standings[0].sets == colour_sets([YELLOW] * 6)
    assert over.winners == ("cara",)


def test_equal_scores_share_first_place() -> None:
    game = Game(seats(3))
    events = []
    for _ in range(6):
        # anne keeps the 1 and so keeps first every round; bob and cara keep the 5s.
        events = pick_all(game, [5, 5, 1], [YELLOW, RED, ORANGE])
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.winners == ("bob", "cara")
    assert [s.rank for s in over.standings] == [1, 1, 3]


def test_game_over_event_closes_the_last_round() -> None:
    game = Game(seats(3))
    rng = random.Random(9)
    events = []
    while not game.is_over:
        events = random_step(game, rng)
    assert isinstance(events[-2], RoundOver) and events[-2].next_first is None
    assert isinstance(events[-1], GameOver) and not events[-1].abandoned
    assert events[-1].standings == game.standings()
    with pytest.raises(IllegalMove) as refused:
        game.roll_with(rng)
    assert refused.value.key == "picker.illegal.game_over"


def test_a_leaver_keeps_the_seat_played_by_a_computer() -> None:
    game = Game(seats(3))
    game.apply(RollDice((1, 2, 3)))
    assert game.remove_player("bob") == [PlayerLeft("bob")]
    assert game.is_computer("bob") and game.left == {"bob"}
    assert game.dice_count == 3 and game.players == seats(3)
    assert game.phase is Phase.PICK  # the round goes on
    with pytest.raises(IllegalMove) as refused:
        game.remove_player("bob")
    assert refused.value.key == "picker.illegal.left_already"
    with pytest.raises(IllegalMove) as refused:
        game.remove_player("zed")
    assert refused.value.key == "picker.illegal.not_in_game"


def test_the_leavers_result_is_marked_left() -> None:
    game = Game(seats(3))
    game.remove_player("cara")
    rng = random.Random(2)
    events = []
    while not game.is_over:
        events = random_step(game, rng)
    assert isinstance(events[-1], GameOver)
    assert {s.player: s.left for s in events[-1].standings} == {
        "anne": False,
        "bob": False,
        "cara": True,
    }


def test_the_game_is_abandoned_when_no_person_is_left() -> None:
    game = Game(seats(3), computer=["cara"])
    game.remove_player("anne")
    events = game.remove_player("bob")
    assert events[0] == PlayerLeft("bob")
    assert isinstance(events[1], GameOver) and events[1].abandoned
    assert events[1].winners == ()
    assert game.is_over and game.abandoned


def test_computer_seats_are_told_at_construction() -> None:
    game = Game(seats(3), computer=["bob"])
    assert game.people == ["anne", "cara"]
    with pytest.raises(InvalidState):
        Game(seats(3), computer=["zed"])
