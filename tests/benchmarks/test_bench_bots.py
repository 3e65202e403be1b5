import re

import benchmarks.bench_bots as bench_bots
from benchmarks.bench_bots import Matchup
from bot.games.pickomino.engine import Rolled


def rolls_by_turn(monkeypatch, seed: int, matchup: Matchup) -> dict[int, list[tuple]]:
    """Play one benchmark game and return the dice rolled in each turn."""
    seen: dict[int, list[tuple]] = {}
    carry_out = bench_bots.carry_out

    def recording(game, decision, rng):
        turn = game.turn_number
        events = carry_out(game, decision, rng)
        seen.setdefault(turn, []).extend(e.dice for e in events if isinstance(e, Rolled))
        return events

    monkeypatch.setattr(bench_bots, "carry_out", recording)
    bench_bots.play(seed, matchup)
    return seen


def test_a_deals_games_roll_the_same_first_dice_each_turn_whoever_plays(monkeypatch):
    # Games 14 and 15 are deal 7, Normal in seat 0 and then in seat 1 against Easy: the
    # players roll different numbers of dice, yet every turn starts from the same dice.
    matchup = Matchup("normal", "easy", 2, 2)
    first_seating = rolls_by_turn(monkeypatch, 14, matchup)
    second_seating = rolls_by_turn(monkeypatch, 15, matchup)
    shared = sorted(set(first_seating) & set(second_seating))
    assert len(shared) > 5
    assert all(first_seating[turn][0] == second_seating[turn][0] for turn in shared)
    # The next deal rolls other dice.
    next_deal = rolls_by_turn(monkeypatch, 16, matchup)
    assert next_deal[1][0] != first_seating[1][0]
    # With one stream per game, the dice part as soon as the choices do.
    game_dice = Matchup("normal", "easy", 2, 2, deals=False)
    first_seating = rolls_by_turn(monkeypatch, 14, game_dice)
    second_seating = rolls_by_turn(monkeypatch, 15, game_dice)
    shared = set(first_seating) & set(second_seating)
    assert any(first_seating[turn][0] != second_seating[turn][0] for turn in shared)


def test_the_hero_takes_each_seat_of_a_deal_once(monkeypatch):
    seats_played: list[str] = []
    decide = bench_bots.PLAYERS["normal"]

    def hero(game):
        seats_played.append(game.current_player)
        return decide(game)

    monkeypatch.setitem(bench_bots.PLAYERS, "normal", hero)
    for number in range(8, 12):  # deal 2 of a four-player table
        bench_bots.play(number, Matchup("normal", "easy", 4, 4))
    assert list(dict.fromkeys(seats_played)) == ["s0", "s1", "s2", "s3"]


def test_the_smallest_run_prints_each_matchups_shares_and_hards_times(capsys):
    tables = ["--games", "2", "--games-4p", "0", "--games-5p", "5", "--games-extrawurm", "2"]
    only = ["--only", "env_heuristic", "extrawurm", "normal (5p)"]
    bench_bots.main([*tables, "--games-extrawurm-4p", "0", *only, "--workers", "1"])
    lines = capsys.readouterr().out.splitlines()
    rows = [
        re.fullmatch(
            r"(\w+ vs [\w ,()]+?) +(\d+) +([\d.]+)% +([\d.]+)% to +([\d.]+)% +(\d+)%"
            r" +([\d.]+)% +([\d.]+)% to +([\d.]+)%",
            line,
        )
        for line in lines[1:5]
    ]
    assert [row[1] for row in rows if row] == [
        "hard vs env_heuristic (2p)",
        "normal vs env_heuristic (2p)",
        "hard vs normal (5p)",
        "hard vs normal (2p, extrawurm)",
    ]
    for row in rows:
        seats = 5 if "5p" in row[1] else 2
        assert int(row[2]) == seats and int(row[6]) == round(100 / seats)  # one deal
        assert 0 <= float(row[4]) <= float(row[3]) <= float(row[5]) <= 100
        assert 0 <= float(row[8]) <= float(row[7]) <= float(row[9]) <= 100
        if seats == 2:  # one opponent: beating them is winning
            assert row[7] == row[3]
    times = [
        re.fullmatch(
            r"(.+) decisions: (\d+), CPU p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms", line
        )
        for line in lines[5:8]
    ]
    assert [found[1] for found in times if found] == [
        "hard, 2 players",
        "hard, 5 players",
        "hard with extrawurm, 2 players",
    ]
    assert all(
        int(found[2]) > 0 and float(found[3]) <= float(found[4]) <= float(found[5])
        for found in times
    )
    assert re.fullmatch(r"\d+ s with 1 workers", lines[-1])
