"""Computer players and hints with the Extrawurm expansion: the ends of a turn as the
engine plays them, the Weasel as a decision, nine dice, legal moves in whole games."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bot.games.pickomino.adapter as adapter_module
import bot.games.pickomino.ai.extrawurm as extrawurm_module
from bot.games.pickomino.adapter import WEASEL, PickominoAdapter
from bot.games.pickomino.ai import outlook
from bot.games.pickomino.ai.extrawurm import (
    evaluate_extrawurm,
    specialist_worth,
    turn_table,
)
from bot.games.pickomino.ai.extrawurm_hints import extrawurm_hint_for, format_extrawurm_hint
from bot.games.pickomino.ai.memo import private_memos
from bot.games.pickomino.ai.players import Level, WeaselDice, decide
from bot.games.pickomino.ai.policy import Move
from bot.games.pickomino.ai.position import Objective
from bot.games.pickomino.ai.solver import solve
from bot.games.pickomino.ai.states import MAX_TOTAL, TurnState
from bot.games.pickomino.engine import (
    Claim,
    ClaimOption,
    Face,
    Game,
    Keep,
    Phase,
    Rules,
    Specialist,
)
from tests.games.pickomino.engine.helpers import faces, keep_rolls, position

EXTRAWURM = Rules(extrawurm=True)
NORMAL = Objective.WORMS


def extrawurm(stacks: dict[str, list[int]], **kwargs: Any) -> Game:
    return position(stacks, rules=EXTRAWURM, **kwargs)


def value(game: Game, option: ClaimOption) -> float:
    return turn_table(game, NORMAL).option_values[option]


def test_a_tile_with_a_specialist_is_worth_its_worms_and_the_specialist() -> None:
    game = extrawurm({"anne": [], "bob": [22]}, specialists={Specialist.WEASEL: "anne"})
    golden = specialist_worth(Specialist.GOLDEN_DIE, game)
    weasel = specialist_worth(Specialist.WEASEL, game)
    assert golden > 0 and weasel > 0
    # 27 carries the Golden Die: gaining it sends Anne's Weasel back.
    assert value(game, ClaimOption.grill(27)) == pytest.approx(2 + golden - weasel)
    # 25 carries the Raven: the tile, a Bratwurm, and Anne keeps her Weasel.
    assert value(game, ClaimOption.grill(25)) == pytest.approx(2 + 1)
    assert value(game, ClaimOption.grill(30)) == pytest.approx(3)


def test_eleven_and_thirteen_are_taken_exactly_and_never_both() -> None:
    game = extrawurm({"anne": [], "bob": []})
    can = specialist_worth(Specialist.CANNED_WORM, game)
    table = turn_table(game, NORMAL)
    assert table.best[11] == ClaimOption.grill(11)  # the Canned Worm sits on 11
    assert table.rewards.stops[11] == pytest.approx(1 + can)
    assert table.best[13] == ClaimOption.grill(13)
    assert table.best[12] is None and table.best[20] is None
    holding = extrawurm({"anne": [], "bob": []}, extras={"anne": [13]})
    assert turn_table(holding, NORMAL).best[11] is None


def test_a_steal_from_the_hens_holder_takes_the_hen_not_the_tile() -> None:
    game = extrawurm({"anne": [], "bob": [29]}, specialists={Specialist.HEN: "bob"})
    hen = specialist_worth(Specialist.HEN, game)
    assert value(game, ClaimOption.steal(29, "bob")) == pytest.approx(hen)
    plain = extrawurm({"anne": [], "bob": [29]}, specialists={Specialist.HEN: 33})
    assert value(plain, ClaimOption.steal(29, "bob")) == pytest.approx(3)


def test_a_failure_costs_the_top_tile_or_the_hen_and_always_the_specialist() -> None:
    hen_holder = extrawurm({"anne": [30], "bob": []}, specialists={Specialist.HEN: "anne"})
    hen = specialist_worth(Specialist.HEN, hen_holder)
    assert turn_table(hen_holder, NORMAL).rewards.fail == pytest.approx(-hen)
    weasel_holder = extrawurm({"anne": [30], "bob": []}, specialists={Specialist.WEASEL: "anne"})
    weasel = specialist_worth(Specialist.WEASEL, weasel_holder)
    assert turn_table(weasel_holder, NORMAL).rewards.fail == pytest.approx(-3 - weasel)


def test_the_turn_knows_its_dice_the_can_the_weasel_and_the_supply() -> None:
    golden = extrawurm({"anne": [], "bob": []}, specialists={Specialist.GOLDEN_DIE: "anne"})
    rewards = turn_table(golden, NORMAL).rewards
    assert (rewards.dice, rewards.can, rewards.weasel, rewards.bonus) == (9, False, False, 1.0)
    can = extrawurm(
        {"anne": [], "bob": []},
        specialists={Specialist.CANNED_WORM: "anne"},
        bratwurms={"bob": 7},
        supply=0,
    )
    rewards = turn_table(can, NORMAL).rewards
    assert (rewards.dice, rewards.can, rewards.bonus) == (8, True, 0.0)


def test_the_golden_dies_holder_plays_nine_dice() -> None:
    game = extrawurm({"anne": [], "bob": []}, specialists={Specialist.GOLDEN_DIE: "anne"})
    adapter, rng = PickominoAdapter(), random.Random(1)
    for level in Level:
        copy = game.copy()
        assert adapter.bot_move(copy, level.value) == "roll"
        adapter.play(copy, "anne", "roll", rng)
        assert copy.roll is not None and len(copy.roll) == 9
        while copy.current_player == "anne" and not copy.is_over:
            adapter.play(copy, "anne", adapter.bot_move(copy, level.value), rng)


def weasel_keep_position() -> Game:
    """Anne holds the Weasel: 4s and 5s kept (27, no worm), and the roll shows two 1s.
    Keeping them fails the turn (all dice kept, no worm) and costs her 30."""
    return extrawurm(
        {"anne": [30], "bob": []},
        specialists={Specialist.WEASEL: "anne"},
        phase=Phase.KEEP,
        kept=faces("444555"),
        roll=faces("11"),
    )


def test_the_weasel_is_chosen_over_a_keep_that_fails() -> None:
    game = weasel_keep_position()
    for level in (Level.NORMAL, Level.HARD):
        assert decide(game, level) == WeaselDice()
    assert PickominoAdapter().bot_move(game, "hard") == WEASEL
    evaluation = evaluate_extrawurm(game, NORMAL)
    assert evaluation.best.move is Move.WEASEL
    keep = next(action for action in evaluation.actions if action.face is Face.ONE)
    assert keep.move is Move.KEEP_STOP and keep.claim is None
    assert evaluation.best.value > keep.value


def test_the_weasel_is_not_spent_on_a_good_roll() -> None:
    game = extrawurm(
        {"anne": [], "bob": []},
        specialists={Specialist.WEASEL: "anne"},
        phase=Phase.KEEP,
        kept=faces("55544"),
        roll=faces("WWW"),
    )
    best = evaluate_extrawurm(game, NORMAL).best
    assert best.face is Face.WORM and best.claim == ClaimOption.grill(36)


def test_hint_for_the_weasel_over_a_failing_keep() -> None:
    hint = extrawurm_hint_for(weasel_keep_position())
    assert hint.recommended.action.move is Move.WEASEL
    # A worm in the two new dice (11/36), or one new 1, 2 or 3 kept and a worm on the
    # last die (18/36 x 1/6; a pair of them uses both dice and fails): 84/216.
    assert hint.weasel is not None and hint.weasel.tile_chance == pytest.approx(84 / 216)
    text = format_extrawurm_hint(hint, {"anne": "Anne"})
    lines = text.splitlines()
    assert lines[0] == (
        "💡 Roll these 2 dice again with the Weasel: about a 2 in 5 chance to end with a tile."
    )
    assert "• Keep the two 1s (+1 Bratwurm) (29): bust" in lines
    assert lines[-1].startswith("Your chance to win the game with this play:")


def test_hint_after_a_roll_with_no_new_face() -> None:
    game = extrawurm(
        {"anne": [30], "bob": []},
        specialists={Specialist.WEASEL: "anne"},
        phase=Phase.NO_NEW_FACE,
        kept=faces("WW3"),
        roll=faces("WW3W3"),
    )
    assert decide(game, Level.HARD) == WeaselDice()
    assert decide(game, Level.EASY) == WeaselDice()
    text = format_extrawurm_hint(extrawurm_hint_for(game), {})
    assert text.startswith("💡 No new face: roll the 5 dice again with the Weasel rather than bust")


def test_hint_names_the_specialist_a_tile_brings_and_the_hen_a_steal_takes() -> None:
    game = extrawurm(
        {"anne": [], "bob": [26]},
        specialists={Specialist.HEN: "bob"},
        phase=Phase.ROLL,
        kept=faces("WWWW52"),
    )
    hint = extrawurm_hint_for(game)
    text = format_extrawurm_hint(hint, {"bob": "Bob"})
    assert "27 (2🪱) and the Golden Die" in text
    game = extrawurm(
        {"anne": [], "bob": [30]},
        specialists={
            Specialist.HEN: "bob",
            Specialist.WEASEL: None,
            Specialist.RAVEN: None,
            Specialist.GOLDEN_DIE: None,
        },
        phase=Phase.ROLL,
        kept=faces("WWWW55"),
        face_down=(21, 22, 23, 24, 25, 26, 27, 28, 29),
    )
    text = format_extrawurm_hint(extrawurm_hint_for(game), {"bob": "Bob"})
    assert "the Sitting Hen from Bob (who keeps 30)" in text


# ------------------------------------------------------------------ whole games


def play_random_games(seeds: range, monkeypatch: pytest.MonkeyPatch) -> int:
    """Whole Extrawurm games between random levels through the adapter, reloading the
    state at every step: every move legal, the last resort never used. Returns moves."""
    last_resort: list[Game] = []
    safe_move = adapter_module._safe_move
    monkeypatch.setattr(
        adapter_module, "_safe_move", lambda game: last_resort.append(game) or safe_move(game)
    )
    adapter = PickominoAdapter()
    moves = 0
    for seed in seeds:
        rng = random.Random(seed)
        players = [f"p{seat}" for seat in range(rng.randrange(2, 8))]
        levels = {player: rng.choice(list(Level)).value for player in players}
        game = adapter.new_game(players, {"extrawurm": True}, rng)
        for _ in range(3000):
            if game.is_over:
                break
            game = adapter.load(adapter.dump(game))  # reload at any point
            mover = game.current_player
            move = adapter.bot_move(game, levels[mover])
            assert adapter.bot_move(adapter.load(adapter.dump(game)), levels[mover]) == move
            if rng.random() < 0.03:
                assert adapter.hint(game, mover, {})
            adapter.play(game, mover, move, rng)
            moves += 1
        assert game.is_over
    assert last_resort == []
    return moves


@pytest.mark.parametrize("block", range(3))
def test_every_level_plays_legal_moves_in_random_extrawurm_games(
    block: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert play_random_games(range(block * 4, block * 4 + 4), monkeypatch) > 0


def test_hard_with_two_players_values_an_end_by_the_opponents_best_answer() -> None:
    # Anne stops with 30 and takes it: Bob then plays his turn for his own chance to
    # win, and what he leaves her is her value of that end. No Bratwurm is left in the
    # supply and nobody holds a specialist, so Bob's answer is a plain turn of eight
    # dice: the base solver's, from the ends of his turn as Hard values them.
    game = extrawurm(
        {"anne": [22], "bob": [26]},
        kept=faces("WWW555"),  # 30
        supply=0,
        bratwurms={"anne": 4, "bob": 3},
        specialists=dict.fromkeys(Specialist, None),
    )
    answer = game.copy()
    answer.apply(Claim(ClaimOption.grill(30)))
    assert answer.current_player == "bob"
    ends = extrawurm_module._build_table(answer, Objective.WIN)  # his ends, no look-ahead
    start = solve(ends.rewards.stops[: MAX_TOTAL + 1], ends.rewards.fail)
    bob_chance = start.value(TurnState.start())
    hard = turn_table(game, Objective.WIN)
    assert hard.option_values[ClaimOption.grill(30)] == pytest.approx(1 - bob_chance, abs=1e-9)


def test_hard_values_an_end_of_the_game_exactly() -> None:
    # Only 36 is left face up (with 11 and 13): taking it ends the game at 13 points
    # each (worms and Bratwurms), and Anne's 36 beats Bob's 34 on the tie-break.
    game = extrawurm(
        {"anne": [22, 26, 29], "bob": [33, 34, 21]},
        face_down=tuple(tile for tile in range(21, 36) if tile not in (22, 26, 29, 33, 34, 21)),
        supply=0,
        bratwurms={"anne": 3, "bob": 4},
        specialists=dict.fromkeys(Specialist, None),
    )
    assert turn_table(game, Objective.WIN).option_values[ClaimOption.grill(36)] == 1.0


# ------------------------------------------------------------------ Hard plays to win


def test_hard_keeps_two_ones_when_their_bratwurm_wins_the_game() -> None:
    # Only 21 is left face up: taking it ends the game. Bob leads 6 to 5 and wins a
    # tie on his 26. Anne has kept three worms and a 5 (20) and rolls 1 1 3 3: the two
    # 1s bring a Bratwurm and 22 takes 21, 7 to 6; the 3s make 26, which takes 21 too
    # but only ties, and the tie is Bob's.
    game = extrawurm(
        {"anne": [22, 25], "bob": [26, 23]},
        face_down=(24, *range(27, 37)),
        phase=Phase.KEEP,
        kept=faces("WWW5"),
        roll=faces("1133"),
        supply=2,
        bratwurms={"anne": 2, "bob": 3},
        specialists=dict.fromkeys(Specialist, None),
    )
    assert decide(game, Level.HARD) == Keep(Face.ONE)
    best, *others = evaluate_extrawurm(game, Objective.WIN).actions
    assert (best.face, best.value) == (Face.ONE, pytest.approx(1.0))
    assert all(action.value < 0.5 for action in others if action.face is not Face.ONE)


def test_hard_spends_the_weasel_on_the_steal_that_wins_where_normal_takes_the_sure_keep() -> None:
    # Only 22 is left. Bob leads 13 to 10; taking 22 cannot catch him, but stealing his
    # 26 (a swing of four) can: Anne needs exactly 26. She has kept a worm, 3s and 4s
    # (19) and rolls 2 2 4 with three dice: keeping the 2s (23) leaves one die that can
    # never make 26, so Hard rolls the three dice again with the Weasel; Normal, playing
    # for worms, keeps the 2s.
    game = extrawurm(
        {"anne": [24, 25, 21, 29], "bob": [27, 23, 28, 26]},
        face_down=tuple(range(30, 37)),
        extras={"anne": [11], "bob": [13]},
        phase=Phase.KEEP,
        kept=faces("W3344"),
        roll=faces("224"),
        supply=0,
        bratwurms={"anne": 2, "bob": 5},
        specialists={
            Specialist.CANNED_WORM: None,
            Specialist.HEN: None,
            Specialist.WEASEL: "anne",
            Specialist.RAVEN: None,
            Specialist.GOLDEN_DIE: 22,
        },
    )
    assert decide(game, Level.HARD) == WeaselDice()
    assert decide(game, Level.NORMAL) == Keep(Face.TWO)
    weasel, keep = evaluate_extrawurm(game, Objective.WIN).actions[:2]
    assert weasel.move is Move.WEASEL and weasel.value > 3 * keep.value


def test_with_more_players_hard_counts_a_top_tile_open_to_steals_unless_the_hen_guards_it() -> None:
    # Bob's 26 and 30 in either order score the same. With two opponents to move before
    # him, a 26 on top is the likelier to be stolen, so it is worth less; under the
    # Sitting Hen a steal would take the Hen instead, and the order no longer matters.
    def chance(bob: list[int], hen: bool) -> float:
        held = {Specialist.HEN: "bob"} if hen else {}
        game = extrawurm({"anne": [22], "bob": bob, "carl": [24]}, specialists=held)
        return extrawurm_module.hard_value(game, "bob")

    assert extrawurm_module.STEALS[26] > 2 * extrawurm_module.STEALS[30]
    assert chance([30, 26], hen=False) < chance([26, 30], hen=False)
    assert chance([30, 26], hen=True) == chance([26, 30], hen=True)


def test_the_extrawurm_hint_tells_how_often_the_tile_would_be_stolen_unless_the_hen_guards_it() -> (
    None
):
    def hint_lines(held: dict[Specialist, str]) -> str:
        stacks: dict[str, list[int]] = {"anne": [30], "bob": [], "carl": [], "dora": []}
        game = extrawurm(stacks, specialists=held, current="bob")
        keep_rolls(game, ("44415WW3", "4"), ("WW153", "W"), ("153", "1"), ("53", "5"))
        return format_extrawurm_hint(extrawurm_hint_for(game), {"anne": "Anne"})

    assert "• 28 on top of your stack: about a 1 in 4 chance it is stolen" in hint_lines({})
    # Under the Sitting Hen a steal takes the Hen, not the tile.
    assert "on top of your stack" not in hint_lines({Specialist.HEN: "bob"})


def test_an_extrawurm_hint_at_four_players_tells_the_chance_to_win_of_hards_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As in the base game (test_hard.py): the values blend the chance to win with the
    # finishing order, and the hint follows Hard's play to the chance to win of each end.
    game = extrawurm({"anne": [30, 26], "bob": [33], "carl": [], "dora": [34]}, current="bob")
    with private_memos():
        blended = extrawurm_hint_for(game)
        value = evaluate_extrawurm(game, Objective.WIN).value
    assert blended.recommended.action.move is Move.ROLL
    assert 0 < blended.win_chance < value
    monkeypatch.setattr(outlook, "WIN_WEIGHT", 1.0)  # part of the memo's key
    with private_memos():
        alone = extrawurm_hint_for(game).win_chance
        assert alone == pytest.approx(evaluate_extrawurm(game, Objective.WIN).value, abs=1e-12)
