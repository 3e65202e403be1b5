import math

import pytest

import benchmarks.bench_bots as bench_bots
from benchmarks.bench_bots import Matchup
from benchmarks.share_across_tables import (
    Measured,
    exponent,
    exponent_range,
    main,
    odds,
    share_of,
    two_player_equivalent,
)
from bot.games.pickomino.engine import Rolled


def test_odds_and_share_are_each_others_inverse_at_every_table_size() -> None:
    for seats in (2, 3, 4, 5):
        for share in (0.05, 0.25, 0.5, 0.9):
            assert share_of(odds(share, seats), seats) == pytest.approx(share)
    # A fair share is even odds against one Normal, whatever the table.
    assert odds(0.5, 2) == pytest.approx(1.0)
    assert odds(0.25, 4) == pytest.approx(1.0)


def test_an_edge_that_carries_whole_asks_bradley_terrys_share_and_a_weaker_carry_asks_more():
    # With k = 1 the odds carry unchanged: 30% of four-player games is odds 9/7, which
    # wins 9/16 of two-player games.
    assert two_player_equivalent(0.30, 1.0) == pytest.approx(9 / 16)
    # An edge that carries only in part (k < 1) needs more at two seats for the same 30%.
    assert two_player_equivalent(0.30, 0.84) > 0.57 > 9 / 16
    # And exponent() reads k back from the two shares it implies.
    two = two_player_equivalent(0.30, 0.84)
    assert exponent(two, 0.30) == pytest.approx(0.84)
    # The measured ninth die (76.6% at two seats, 47.6% at four): k about 0.85.
    assert exponent(0.766, 0.476) == pytest.approx(0.845, abs=0.005)


def test_the_exponents_range_spans_its_intervals_corners_and_is_open_across_an_even_share():
    two, four = Measured(0.766, 0.741, 0.791), Measured(0.476, 0.446, 0.506)
    low, high = exponent_range(two, four)
    assert low < exponent(0.766, 0.476) < high
    assert low == pytest.approx(exponent(0.791, 0.446))
    assert high == pytest.approx(exponent(0.741, 0.506))
    # A two-player interval that straddles 50% allows any exponent.
    assert exponent_range(Measured(0.52, 0.48, 0.56), four) == (-math.inf, math.inf)


def test_the_ninth_die_player_rolls_nine_dice_from_each_turns_start(monkeypatch) -> None:
    first_rolls: dict[str, list[int]] = {}
    carry_out = bench_bots.carry_out

    def recording(game, decision, rng):
        mover, fresh = game.current_player, not game.kept and game.roll is None
        events = carry_out(game, decision, rng)
        rolled = [event for event in events if isinstance(event, Rolled)]
        if fresh and rolled:
            first_rolls.setdefault(mover, []).append(len(rolled[0].dice))
        return events

    monkeypatch.setattr(bench_bots, "carry_out", recording)
    bench_bots.play(6, Matchup("normal_ninth_die", "normal", 2, 2))  # the hero in seat 0
    assert set(first_rolls["s0"]) == {9}
    assert set(first_rolls["s1"]) == {8}


def test_the_script_prints_each_players_shares_and_what_the_target_reads_as(capsys) -> None:
    main(["--games", "8", "--players", "normal_ninth_die", "easy", "--workers", "1"])
    out = capsys.readouterr().out
    assert "normal_ninth_die" in out and "easy" in out and "Extrawurm, seed 1" in out
    # Either the references gave a reading, or the script says why not.
    assert "30% of four-player games reads as" in out or "play more games" in out


def test_an_unknown_player_is_an_error_line_not_a_traceback(capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--players", "optimal_bot"])
    assert stopped.value.code == 2
    assert "error: --players takes easy, normal_ninth_die, hard" in capsys.readouterr().err


def test_the_ninth_die_is_refused_in_the_base_game_whose_normal_solves_eight_dice(capsys):
    with pytest.raises(SystemExit):
        main(["--base", "--players", "easy", "normal_ninth_die"])
    assert "error: normal_ninth_die plays Extrawurm only" in capsys.readouterr().err
