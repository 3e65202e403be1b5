"""bench_solver times the solver's fresh turns and decisions, base game and Extrawurm."""

import random
import re

from benchmarks import bench_solver
from bot.games.pickomino.engine import Specialist

FIGURES = re.compile(
    r"(.+?) +wall p50 +[\d.]+ ms p99 +[\d.]+ ms +cpu p50 +[\d.]+ ms p99 +[\d.]+ ms"
    r" +\((\d+) samples\)"
)


def test_it_prints_each_kind_of_call_with_its_samples(capsys) -> None:
    bench_solver.main(["--positions", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "positions of 2 players"
    assert re.fullmatch(
        r"state graph \(once per process\): [\d.]+ s, \d+ states, \d+ outcomes", lines[1]
    )
    timed = {found[1]: int(found[2]) for line in lines if (found := FIGURES.fullmatch(line))}
    decisions = timed.pop("each decision after that")
    extrawurm_decisions = timed.pop("Extrawurm each decision after that")
    assert decisions >= 2 and extrawurm_decisions >= 2  # a turn has one decision at least
    assert timed == {
        "fresh turn (solve from 8 dice)": 2,
        "first hint of a turn": 2,
        "18 answers at once (batch.py)": 1,
        "18 answers one by one": 1,
        "Extrawurm fresh turn, 9 dice (Golden)": 1,
        "Extrawurm fresh turn, 8 dice + Weasel": 1,
        "Extrawurm first hint of a turn": 2,
    }


def test_a_kind_without_positions_says_so(capsys) -> None:
    bench_solver.main(["--positions", "1", "--only", "extrawurm"])
    lines = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    assert "Extrawurm fresh turn, 8 dice + Weasel no samples" in lines
    assert not any(line.startswith("state graph") for line in lines)  # --only extrawurm


def test_positions_of_five_players_time_hards_blend_and_its_hint(capsys) -> None:
    bench_solver.main(["--positions", "2", "--players", "5", "--only", "extrawurm"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "positions of 5 players"
    timed = {found[1]: int(found[2]) for line in lines if (found := FIGURES.fullmatch(line))}
    assert timed["Extrawurm first hint of a turn"] == 2
    assert timed["Extrawurm each decision after that"] >= 2


def test_five_seats_share_the_seven_bratwurms_in_every_position() -> None:
    rng = random.Random(3)
    for index in range(200):  # uncapped, five seats of up to two overdraw the supply often
        held = Specialist.GOLDEN_DIE if index % 2 == 0 else Specialist.WEASEL
        game = bench_solver.random_extrawurm_game(rng, held, players=5)
        assert game.current_player == "bot"
