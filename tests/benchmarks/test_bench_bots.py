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


def test_with_turn_dice_each_turn_rolls_the_same_first_dice_whoever_plays(monkeypatch):
    # Easy and Normal play the first turn differently (they roll different numbers of
    # dice), yet with --turn-dice every later turn starts from the same dice.
    easy = rolls_by_turn(monkeypatch, 7, Matchup("easy", "easy", 2, 1, turn_dice=True))
    normal = rolls_by_turn(monkeypatch, 7, Matchup("normal", "easy", 2, 1, turn_dice=True))
    shared = sorted(set(easy) & set(normal))
    assert len(shared) > 5
    assert all(easy[turn][0] == normal[turn][0] for turn in shared)
    # With one stream per game, the dice part as soon as the choices do.
    easy = rolls_by_turn(monkeypatch, 7, Matchup("easy", "easy", 2, 1))
    normal = rolls_by_turn(monkeypatch, 7, Matchup("normal", "easy", 2, 1))
    assert any(easy[turn][0] != normal[turn][0] for turn in set(easy) & set(normal))
