"""Hard plays for the win (and at bigger tables the finishing order): the steal's full
swing, the failure's turned tile, the end game."""

from collections.abc import Mapping
from dataclasses import replace

import pytest

from bot.games.pickomino.ai import outlook
from bot.games.pickomino.ai.hints import hint_for
from bot.games.pickomino.ai.memo import private_memos
from bot.games.pickomino.ai.outlook import Table
from bot.games.pickomino.ai.players import Level, RollDice, decide
from bot.games.pickomino.ai.policy import evaluate_game
from bot.games.pickomino.ai.position import Objective, Position
from bot.games.pickomino.ai.solver import solve
from bot.games.pickomino.ai.states import TurnState
from bot.games.pickomino.engine import (
    ALL_TILES,
    Claim,
    ClaimOption,
    Face,
    Game,
    Keep,
    LowerTile,
    Roll,
    Rules,
    Source,
)
from tests.games.pickomino.engine.helpers import faces, keep_rolls, position


def with_grill(
    stacks: dict[str, list[int]], grill: set[int], current: str, rules: Rules | None = None
) -> Game:
    """A position whose grill holds only `grill`: every other free tile is face down."""
    held = {tile for stack in stacks.values() for tile in stack}
    face_down = tuple(tile for tile in ALL_TILES if tile not in held | grill)
    return position(stacks, face_down=face_down, current=current, rules=rules)


def test_hard_steals_from_the_player_level_with_it_when_that_also_beats_one_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Anne leads with 11 worms; Bob and Carl have 4 each, Dora 1. Anne and Carl each
    # show a tile of 3 worms: keeping the 1 makes 29 (Anne's), keeping the 2 makes 30
    # (Carl's); no grill tile is that low. Anne's 29 leaves the better chance to win (7
    # worms against her 8), Carl's 30 leaves Carl far behind (7 against 1): one more
    # opponent beaten. Dora moves next, so neither victim answers at once. Hard's blend
    # weighs both and takes Carl's; for the chance to win alone it would take Anne's.
    stacks = {"anne": [33, 34, 29], "bob": [25, 26], "dora": [22], "carl": [21, 30]}

    def hards_steal(weight: float) -> tuple[object, object]:
        monkeypatch.setattr(outlook, "WIN_WEIGHT", weight)
        with private_memos():
            game = with_grill(stacks, {35, 36}, current="bob")
            keep_rolls(game, ("WWWW4433", "W"), ("4433", "4"))  # 28 kept, two dice left
            game.apply(Roll(faces("12")))
            keep = decide(game, Level.HARD)
            assert isinstance(keep, Keep)
            game.apply(keep)
            claim = decide(game, Level.HARD)
            assert isinstance(claim, Claim) and claim.option.source is Source.STEAL
            return keep, claim.option.victim

    held = {player: tuple(tiles) for player, tiles in stacks.items()}
    table = Table("bob", tuple(held.items()))
    after = {
        victim: table.standing((35, 36), {**held, victim: rest, "bob": (25, 26, tile)})
        for victim, rest, tile in (("anne", (33, 34), 29), ("carl", (21,), 30))
    }
    assert after["anne"].win > after["carl"].win and after["anne"].ahead < after["carl"].ahead
    assert hards_steal(outlook.WIN_WEIGHT) == (Keep(Face.TWO), "carl")
    assert hards_steal(1.0) == (Keep(Face.ONE), "anne")


def test_hard_counts_the_steals_full_swing_against_its_only_opponent() -> None:
    # Keeping the 1 makes 27, Anne's top (2 worms); keeping the 4 makes 30, the
    # grill's 30 (3 worms). A steal of 2 moves the gap by 4: Hard steals, while
    # Normal, counting only its own worms, goes for the 3 worms of the grill.
    game = position({"anne": [27], "bob": []}, current="bob")
    keep_rolls(game, ("WWWW3311", "W"), ("3311", "3"))  # 26 kept, two dice left
    game.apply(Roll(faces("14")))
    assert decide(game, Level.HARD) == Keep(Face.ONE)
    assert decide(game, Level.NORMAL) == Keep(Face.FOUR)
    game.apply(Keep(Face.ONE))
    decision = decide(game, Level.HARD)
    assert isinstance(decision, Claim) and decision.option.source is Source.STEAL


def test_the_tile_a_failure_turns_over_helps_the_leader_and_hurts_the_others() -> None:
    # Bob fails: his 21 goes back and the grill's highest tile, 36, is turned over.
    # Its 4 worms leave the game: the leader can no longer lose them to a chaser.
    def fail_and_unturned(bob: list[int], anne: list[int]) -> tuple[float, float]:
        game = with_grill({"anne": anne, "bob": bob}, {22, 30, 36}, current="bob")
        where = Position.from_game(game, Objective.WIN)
        assert where.table is not None
        unturned = where.table.value((21, 22, 30, 36), {"anne": tuple(anne), "bob": ()})
        return where.fail_value, unturned

    failure, without_turning = fail_and_unturned(bob=[21], anne=[25])
    assert failure < without_turning  # Bob, behind after losing his 21, wants worms left
    failure, without_turning = fail_and_unturned(bob=[33, 34, 21], anne=[25])
    assert failure > without_turning  # Bob, ahead, is glad to see them go
    # Counting worms alone, a failure costs the top tile and nothing else.
    game = with_grill({"anne": [25], "bob": [21]}, {22, 36}, current="bob")
    assert Position.from_game(game, Objective.WORMS).fail_value == -1.0


def test_in_the_end_game_hard_stops_to_win_rather_than_roll_for_more() -> None:
    # One tile left, 25. With 25 kept, stopping takes it and ends the game 6 to 5
    # for Bob. Rolling on could steal Anne's 33 (4 worms): Normal tries, Hard does
    # not risk a failure, which would give his 22 back and the game to Anne.
    game = with_grill({"anne": [21, 33], "bob": [26, 23, 22]}, {25}, current="bob")
    keep_rolls(game, ("WWWW5432", "W"), ("5432", "5"))  # 25, three dice left
    (claim,) = game.claim_options()
    assert decide(game, Level.HARD) == Claim(claim)
    assert isinstance(decide(game, Level.NORMAL), RollDice)
    assert evaluate_game(game).value == 1.0  # the win is certain


def test_a_steal_is_worth_more_than_a_grill_tile_of_the_same_worms() -> None:
    game = position({"anne": [27], "bob": []}, current="bob")
    where = Position.from_game(game, Objective.WIN)
    grill, steal = where.claims(27, has_worm=True)
    assert (grill.tile, steal.source) == (26, Source.STEAL)
    assert grill.worms == steal.worms
    assert where.claim_value(steal) > where.claim_value(grill)
    assert where.best_claim(27, has_worm=True) == steal


def test_under_the_any_rule_a_stop_is_worth_the_best_tile_it_may_take() -> None:
    rules = Rules(lower_tile=LowerTile.ANY)
    game = with_grill({"anne": [27], "bob": [21]}, {22, 25, 26, 36}, current="bob", rules=rules)
    where = Position.from_game(game, Objective.WIN)
    options = where.claims(30, has_worm=True)
    assert {option.tile for option in options} == {22, 25, 26}
    rewards = where.rewards()
    assert rewards[30] == max(where.claim_value(option) for option in options)
    keep_rolls(game, ("WWWW5555", "W"), ("5555", "5"))  # 40: every die kept
    decision = decide(game, Level.HARD)
    assert isinstance(decision, Claim) and decision.option in game.claim_options()
    assert where.claim_value(decision.option) == rewards[40]


def test_far_behind_hard_takes_the_tile_that_keeps_a_comeback_alive() -> None:
    # Under the any-lower-tile rule, 26 kept with every die: 25 or 23 may be taken. Bob
    # trails 0 to 6 with two tiles left. By the worms left on the grill (the model of
    # outlook.py alone), the 23 looks better: it leaves two worms to play for. Looking at
    # Anne's answer shows why not: if she fails, her 24 goes back and the highest tile is
    # turned over. After the 23, that is the 25, and the grill keeps one tile; after the
    # 25, the grill keeps 23 and 24, Bob holds 2 worms and Anne's 27 is open to a steal.
    rules = Rules(lower_tile=LowerTile.ANY)
    stacks = {"anne": [29, 27, 24], "bob": []}
    game = with_grill(stacks, {23, 25}, current="bob", rules=rules)
    keep_rolls(game, ("WW114442", "W"), ("114442", "4"), ("112", "1"), ("2", "2"))
    assert {option.tile for option in game.claim_options()} == {23, 25}
    decision = decide(game, Level.HARD)
    assert isinstance(decision, Claim) and decision.option.tile == 25
    where = Position.from_game(game, Objective.WIN)
    assert where.table is not None and where.table.looks_ahead
    static = replace(where, table=replace(where.table, looks_ahead=False))
    assert static.claim_value(ClaimOption(23)) > static.claim_value(ClaimOption(25))


def test_each_end_is_worth_what_the_opponents_best_answer_leaves() -> None:
    # The look-ahead, worked out one end at a time with the one-table solver: after each
    # claim and after a failure, Anne's best turn for her own chance to win, and Bob's
    # chance is the rest.
    game = with_grill({"anne": [27, 30], "bob": [26]}, {21, 22, 24, 28, 33, 35}, current="bob")
    where = Position.from_game(game, Objective.WIN)
    table = where.table
    assert table is not None and table.looks_ahead
    ends = {option: table.claimed(where.grill, option) for option in where.claims(28, True)}
    ends |= {option: table.claimed(where.grill, option) for option in where.claims(30, True)}
    assert {option.source for option in ends} == {Source.GRILL, Source.STEAL}
    ends[None] = table.failed(where.grill)
    for option, (grill, stacks) in ends.items():
        answer = Position(
            grill,
            own_top=stacks["anne"][-1],
            opponent_tops=(("bob", stacks["bob"][-1]),) if stacks["bob"] else (),
            table=Table("anne", tuple(stacks.items())),
        )
        anne = solve(answer.rewards(), answer.fail_value).value(TurnState.start())
        bob = where.fail_value if option is None else where.claim_value(option)
        assert bob == pytest.approx(1 - anne, abs=1e-9)
        assert 0 < bob < 1


def test_an_end_that_empties_the_grill_is_the_games_exact_result() -> None:
    # One tile left: taking it ends the game, Bob ahead 4 to 3 (no answer to look at).
    game = with_grill({"anne": [30], "bob": [29]}, {21}, current="bob")
    where = Position.from_game(game, Objective.WIN)
    assert where.claim_value(ClaimOption(21)) == 1.0
    game = with_grill({"anne": [30, 25], "bob": [29]}, {21}, current="bob")
    assert Position.from_game(game, Objective.WIN).claim_value(ClaimOption(21)) == 0.0


def test_with_three_or_more_players_a_top_tile_open_to_steals_is_worth_less() -> None:
    # Bob's 25 and 30 in either order: the same worms and the same highest tile, so the
    # pairwise model alone cannot tell them apart. A 25 on top is stolen far more often
    # (outlook.STEALS) than a 30: with two opponents to come, it is worth less.
    def chance(
        bob: tuple[int, ...],
        others: Mapping[str, tuple[int, ...]],
        grill: tuple[int, ...] = (22, 27, 36),
    ) -> float:
        stacks = {"bob": bob, **others}
        return Table("bob", tuple(stacks.items())).value(grill, stacks)

    three = {"anne": (21,), "carl": (24,)}
    assert outlook.STEALS[25] > 3 * outlook.STEALS[30]
    assert chance((30, 25), three) < chance((25, 30), three)
    # Two players: the look-ahead plays the opponent's answer itself (position.py).
    assert chance((30, 25), {"anne": (21,)}) == chance((25, 30), {"anne": (21,)})
    # A turn that empties the grill ends the game: nothing is open to a steal any more.
    assert chance((30, 25), three, grill=()) == chance((25, 30), three, grill=()) == 1.0


def test_at_three_players_hard_values_each_end_after_the_next_players_turn() -> None:
    # Bob holds nothing and may stop on 28. Carl moves next, holding 24: for his worms
    # he steals Bob's new 28 with an exact 28, or Anne's 30 with an exact 30. Each of
    # Bob's ends is worth the standing Carl's play for his worms leaves it, the solver
    # followed through Carl's turn; the 28 is then open only to Anne's turn.
    game = position({"anne": [30], "bob": [], "carl": [24]}, current="bob")
    keep_rolls(game, ("44415WW3", "4"), ("WW153", "W"), ("153", "1"), ("53", "5"))
    with private_memos():
        hard = Position.from_game(game, Objective.WIN)
        table = hard.table
        assert table is not None
        take = next(option for option in hard.claims(28, True) if option.tile == 28)
        grill, stacks = table.claimed(hard.grill, take)
        carl = Position(grill, own_top=24, opponent_tops=(("anne", 30), ("bob", 28)))
        carls = Table("carl", tuple(stacks.items()))
        worth: list[float | None] = []
        for total in range(len(carl.rewards())):
            answer = carl.best_claim(total, True)
            seen = None if answer is None else table.standing(*carls.claimed(grill, answer), "carl")
            worth.append(None if seen is None else seen.value)
        failed = table.standing(*carls.failed(grill), "carl").value
        carls_turn = solve(carl.rewards(), carl.fail_value)
        expected = carls_turn.expected(TurnState.start(), tuple(worth), failed)
        # Where two of Carl's choices are worth the same to him, the solver's walk takes
        # the one better for Bob and the batch the first: the last digits may part.
        assert hard.claim_value(take) == pytest.approx(expected, abs=2e-3)
        # Carl ends his turn on Bob's 28 about once in 37 (an exact 28, his best claim
        # there); the standing as it lies counts him as a thief of the average tile.
        assert carls_turn.reward_chance(TurnState.start(), frozenset({28})) > 0.02
        assert hard.claim_value(take) < table.value(grill, stacks) - 0.01


def test_with_three_or_more_players_hard_plays_for_the_win_and_the_finishing_order() -> None:
    # Bob's 8 worms against Anne's 10 and Carl's 2, the grill empty: the game is over,
    # Bob second. With two players the value is the chance to win alone.
    over = outlook.standing("bob", {"anne": (10, 30), "bob": (8, 29), "carl": (2, 21)}, 0)
    assert (over.win, over.ahead) == (0.0, 0.5)
    assert over.value == pytest.approx((1 - outlook.WIN_WEIGHT) * 0.5)
    tied = outlook.standing("bob", {"anne": (8, 29), "bob": (8, 29), "carl": (2, 21)}, 0)
    assert (tied.win, tied.ahead) == (0.5, 0.75)  # first place shared; Anne counts half
    two = outlook.standing("bob", {"anne": (10, 30), "bob": (8, 29)}, 12)
    assert two.value == two.win == two.ahead
    # While the game goes on: the product of the pairwise chances, and their mean.
    going = outlook.standing("bob", {"anne": (10, 30), "bob": (8, 29), "carl": (2, 21)}, 20)
    assert 0 < going.win < going.ahead < 1
    blend = outlook.WIN_WEIGHT * going.win + (1 - outlook.WIN_WEIGHT) * going.ahead
    assert going.value == pytest.approx(blend)
    assert 0 < outlook.WIN_WEIGHT < 1  # both count


def test_a_hint_at_three_or_more_players_tells_the_chance_to_win_of_hards_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Hard's values blend the chance to win with the finishing order; the hint follows
    # Hard's play through the turn to the chance to win of each end it may reach. With
    # the chance to win alone as the value, the two are the same number.
    game = position({"anne": [30, 25], "bob": [22], "carl": [], "dora": [27]}, current="bob")
    keep_rolls(game, ("44415WW3", "4"))  # 12 kept, five dice left
    with private_memos():
        blended = hint_for(game)
        evaluation = evaluate_game(game)
    assert blended.recommended == evaluation.best
    assert 0 < blended.win_chance < evaluation.value  # the blend counts places beyond the win
    monkeypatch.setattr(outlook, "WIN_WEIGHT", 1.0)
    with private_memos():
        assert hint_for(game).win_chance == pytest.approx(evaluate_game(game).value, abs=1e-12)
