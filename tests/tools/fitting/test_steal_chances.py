from collections import Counter

import pytest

import tools.fitting.steal_chances as steal_chances
from bot.games.pickomino.engine import ALL_TILES
from tools.fitting.steal_chances import play


def test_every_steal_is_of_a_tile_that_faced_that_turn_and_tiles_are_taken_often() -> None:
    exposures: Counter[int] = Counter()
    steals: Counter[int] = Counter()
    for seed in range(3):
        faced, taken = play(seed, 4, extrawurm=False)
        assert set(faced) <= set(ALL_TILES)
        assert all(taken[tile] <= faced[tile] for tile in taken)
        exposures.update(faced)
        steals.update(taken)
    # Three Normal opponents face each top tile before its owner moves again, and the
    # low tiles, the easiest totals, are taken often enough for Hard to weigh.
    low = range(21, 27)
    assert sum(exposures[tile] for tile in low) > 50
    assert 0.05 < sum(steals[tile] for tile in low) / sum(exposures[tile] for tile in low) < 0.5


def test_with_extrawurm_a_top_tile_under_the_hen_is_not_followed(monkeypatch) -> None:
    faced, taken = play(5, 4, extrawurm=True)
    assert sum(faced.values()) > 20 and all(taken[tile] <= faced[tile] for tile in taken)
    # A steal from the Hen's holder takes the Hen, not the tile: such tops are left out.
    monkeypatch.setattr(steal_chances, "_hen_holder", lambda game, player: True)
    faced, taken = play(5, 4, extrawurm=True)
    assert not faced and not taken


def test_a_player_count_the_game_has_not_is_an_error_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        steal_chances.main(["--players", "9"])
    assert exit_.value.code == 2
    assert "error: argument --players: invalid choice" in capsys.readouterr().err
