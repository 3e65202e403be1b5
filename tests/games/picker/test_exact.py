"""Three-player Hard's exact tables (bot/games/picker/ai/exact.py): the same values as
the ceiling's solver, the look-ahead rule as the benchmark's bot keeps, the best keep
against the rules read, and the look-ahead used where the tables cannot answer."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from benchmarks.support.picker_ceiling import solve
from benchmarks.support.picker_opponents import greedy, greedy_index, lookahead
from bot.games.picker.adapter import PickerAdapter, normal_seats, pick_move
from bot.games.picker.ai import Level, decide, exact, hint_for
from bot.games.picker.ai.lookahead import candidate_values
from bot.games.picker.ai.players import hard_choice, hard_values
from bot.games.picker.engine import COLOURS, Game, Pick, RollDice
from bot.games.picker.engine.colours import COLOUR_INDEX
from bot.games.picker.plugin import PICKER
from bot.games.picker.words import hint_text
from tests.games.picker.helpers import key_and_gaps, play_rounds, random_step, seats

LOOKAHEAD = exact.Rule.LOOKAHEAD
NORMAL = exact.Rule.NORMAL


@pytest.fixture(scope="module")
def tables() -> Exact:
    """Tables of this module's own, built as the tests ask (late positions: fast)."""
    return exact.Tables()


Exact = exact.Tables


def at(table: np.ndarray, round_index: int, d1: int, d2: int) -> float:
    """A table's value at gaps d1, d2; past its edge a gap is decided (exact.radius)."""
    reach = exact.radius(round_index)
    return float(table[min(max(d1, -reach), reach) + reach, min(max(d2, -reach), reach) + reach])


def share_of(game: Game, player: str) -> float:
    winners = [standing.player for standing in game.standings() if standing.rank == 1]
    return 1 / len(winners) if player in winners else 0.0


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rule", [exact.Rule.NORMAL, exact.Rule.GREEDY])
def test_the_tables_against_rules_blind_to_scores_are_the_ceilings(
    tables: Exact, seed: int, rule: exact.Rule
) -> None:
    game = play_rounds(seed, 4)
    key, d1, d2 = key_and_gaps(game)
    opponent = None if rule is exact.Rule.NORMAL else greedy_index
    ceiling = solve(rounds=2, starts=(key,), start_gap=max(abs(d1), abs(d2)), opponent=opponent)
    table = tables.pairs[rule, rule].table(4, key)
    for gap1, gap2 in [(d1, d2), (0, 0), (5, -3), (-9, 12)]:
        if max(abs(gap1), abs(gap2)) <= max(abs(d1), abs(d2)):
            expected = ceiling.value(key, gap1, gap2)
            assert at(table, 4, gap1, gap2) == pytest.approx(expected, abs=1e-6)


def last_round_games(count: int) -> Iterator[Game]:
    """Positions of the last round with a choice, reached by random keeps."""
    for seed in range(count):
        rng = random.Random(seed)
        game = play_rounds(seed, 5)
        game.roll_with(rng)
        while len(game.available()) > 1:
            yield game.copy()
            game.apply(Pick(rng.choice(game.available())))


def test_the_look_ahead_rule_keeps_as_the_benchmarks_bot_in_the_last_round(tables: Exact) -> None:
    checked = 0
    for game in last_round_games(40):
        # In the last round nothing is random: the bot's one sample is the exact value.
        bot = COLOUR_INDEX[lookahead(game, random.Random(0))]
        assert exact.lookahead_keep(game, tables) == bot
        checked += 1
    assert checked >= 60


def test_the_all_greedy_value_is_the_engines_over_every_roll(tables: Exact) -> None:
    for seed in range(3):
        game = play_rounds(seed, 5)
        key, d1, d2 = key_and_gaps(game)
        expected = 0.0
        for dice in exact.DICE:
            table = game.copy()
            table.apply(RollDice(dice))
            while not table.is_over:
                table.apply(Pick(greedy(table, random.Random(0))))
            expected += share_of(table, game.players[0]) / len(exact.DICE)
        value = tables.greedy.value(5, key, np.array([[d1]]), np.array([[d2]]))
        assert float(value.item()) == pytest.approx(expected, abs=1e-6)


def test_the_last_round_against_look_ahead_players_is_the_engines(tables: Exact) -> None:
    still_open = 0
    for seed in range(6):
        game = play_rounds(seed, 5)
        key, d1, d2 = key_and_gaps(game)
        expected = sum(best_share(game, dice) for dice in exact.DICE) / len(exact.DICE)
        value = at(tables.pairs[LOOKAHEAD, LOOKAHEAD].table(5, key), 5, d1, d2)
        assert value == pytest.approx(expected, abs=1e-6)
        still_open += 0 < expected < 1
    assert still_open >= 2


def best_share(game: Game, dice: tuple[int, ...]) -> float:
    """Seat 0's best share of the last round rolling `dice` (every roll, not only the
    shapes the tables count), the others keeping as the benchmark's look-ahead bot."""
    table = game.copy()
    table.apply(RollDice(dice))
    while table.current != 0:
        table.apply(Pick(lookahead(table, random.Random(0))))
    best = 0.0
    for colour in table.available():
        trial = table.copy()
        trial.apply(Pick(colour))
        while not trial.is_over:
            trial.apply(Pick(lookahead(trial, random.Random(0))))
        best = max(best, share_of(trial, game.players[0]))
    return best


def test_hard_keeps_the_best_die_against_the_rule_it_knows(tables: Exact) -> None:
    normals = [[1.0, 0.0, 0.0]] * 3
    for game in last_round_games(12):
        me = game.players[game.current]
        outcomes = {}
        for colour in game.available():
            trial = game.copy()
            trial.apply(Pick(colour))
            while not trial.is_over:
                trial.apply(decide(trial, Level.NORMAL, random.Random(0)))
            outcomes[COLOUR_INDEX[colour]] = share_of(trial, me)
        chosen = exact.choose(game, normals, tables)
        assert outcomes[chosen] == max(outcomes.values())
        values = exact.option_values(game, (NORMAL, NORMAL), tables)
        assert values == pytest.approx(outcomes)


def test_look_ahead_players_are_read_as_such(tables: Exact) -> None:
    read = 0
    for seed in range(4):
        game = Game(seats(3), first=seed % 3)
        rng = random.Random(seed)
        players = [greedy, lookahead, lookahead]
        while game.round < 5 or game.current != 0:
            if game.legal_actions().can_roll:
                game.roll_with(rng)
            else:
                game.apply(Pick(players[game.current](game, rng)))
        chances = exact.rule_chances(game, tables)
        assert chances[0] == pytest.approx(list(exact.PRIOR))  # the player to move: not read
        for seat in (1, 2):
            assert sum(chances[seat]) == pytest.approx(1.0)
            if chances[seat] != pytest.approx(list(exact.PRIOR)):
                read += 1
                assert chances[seat][2] == max(chances[seat]), chances
    assert read >= 5  # most look-ahead players made a keep that told


@pytest.fixture
def last_round() -> Game:
    return next(iter(last_round_games(1)))


def rollout_choice(game: Game) -> int:
    values = candidate_values(game, random.Random(3))
    dice = game.dice
    assert dice is not None
    return max(values, key=lambda i: (values[i], dice[i], -i))


def test_hard_plays_the_tables_only_once_they_are_ready(
    monkeypatch: pytest.MonkeyPatch, last_round: Game
) -> None:
    fresh = exact.Tables()
    monkeypatch.setattr(exact, "TABLES", fresh)
    assert COLOUR_INDEX[hard_choice(last_round, random.Random(3))] == rollout_choice(last_round)
    fresh.ready = True
    expected = exact.choose(last_round, exact.rule_chances(last_round, fresh), fresh)
    assert COLOUR_INDEX[hard_choice(last_round, random.Random(3))] == expected
    assert hint_for(last_round).colour is COLOURS[expected]  # the hint is Hard's choice


def test_off_the_tables_hard_plays_its_look_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    game = play_rounds(1, 4)
    game.roll_with(random.Random(1))
    frozen = exact.Tables()
    for memo in (frozen.greedy, *frozen.pairs.values()):
        memo.frozen = True
    frozen.ready = True
    monkeypatch.setattr(exact, "TABLES", frozen)
    with pytest.raises(exact.OffTable):
        exact.choose(game, [list(exact.PRIOR)] * 3, frozen)
    assert COLOUR_INDEX[hard_choice(game, random.Random(3))] == rollout_choice(game)
    assert hard_choice(game, random.Random(3)) in COLOURS


def test_seats_known_to_be_normal_are_not_read(tables: Exact) -> None:
    game = Game(seats(3), first=0)
    rng = random.Random(2)
    players = [greedy, greedy, lookahead]
    while game.round < 4 or game.current != 0:
        if game.legal_actions().can_roll:
            game.roll_with(rng)
        else:
            game.apply(Pick(players[game.current](game, rng)))
    read = exact.rule_chances(game, tables)
    told = exact.rule_chances(game, tables, normal_seats={1})
    assert read[1] != pytest.approx([1.0, 0.0, 0.0])  # its greedy keeps were read
    assert told[1] == [1.0, 0.0, 0.0]  # known: Normal's rule, whatever it kept
    assert told[2] == read[2] and told[0] == read[0]


def test_hard_told_its_opponents_are_normal_plays_the_best_reply_to_them(
    monkeypatch: pytest.MonkeyPatch, tables: Exact
) -> None:
    tables.ready = True
    monkeypatch.setattr(exact, "TABLES", tables)
    normals = [[1.0, 0.0, 0.0]] * 3
    adapter = PickerAdapter()
    for game in last_round_games(6):
        me = game.current
        others = frozenset(seat for seat in range(3) if seat != me)
        best = COLOURS[exact.choose(game, normals, tables)]
        assert hard_choice(game, random.Random(0), normal_seats=others) is best
        assert hint_for(game, normal_seats=others).colour is best
        # The platform names the table's computer players by player id and level: a
        # seat kept for a person who left ("") is played by Normal too.
        levels = {
            game.players[seat]: level
            for seat, level in zip(sorted(others), ("normal", ""), strict=True)
        }
        assert adapter.bot_move(game.copy(), "hard", levels) == pick_move(best)
        me_name = game.players[me]
        told_hint = adapter.hint(game, me_name, {}, levels)
        assert told_hint == hint_text(hint_for(game, normal_seats=others), {})
        assert normal_seats(game, levels) == others
        assert normal_seats(game, {game.players[seat]: "hard" for seat in others}) == set()


def test_told_normal_seats_play_out_as_normal_beyond_three_players() -> None:
    game = Game(seats(5), first=0)
    rng = random.Random(3)
    while game.round < 3 or game.dice is None:
        random_step(game, rng)
    others = frozenset(seat for seat in range(5) if seat != game.current)
    told = hard_values(game, random.Random(4), normal_seats=others)
    assert told == candidate_values(game, random.Random(4), chances=[0.0] * 5)
    assert told != hard_values(game, random.Random(4))  # read, their keeps look greedy too


def late_tables() -> exact.Tables:
    """Tables with a few late positions built, and stand-ins for the starting tables a
    kept file must hold (building those takes the full minute)."""
    kept = exact.Tables()
    for rules in ((NORMAL, NORMAL), (LOOKAHEAD, exact.Rule.GREEDY)):
        kept.pairs[rules].table(4, (0, (0b011, 0b101, 0b110)))
    for memo in kept.pairs.values():
        for first in range(3):
            memo.tables[0, (first, (0, 0, 0))] = np.full((3, 3), first / 3, np.float32)
    return kept


def test_kept_tables_load_as_they_were_built(tmp_path) -> None:
    built = late_tables()
    path = tmp_path / "cache" / exact.CACHE_NAME
    built.save(path)
    loaded = exact.Tables()
    loaded.load(path)
    assert loaded.ready
    for (name, memo), (_, kept) in zip(built._memos(), loaded._memos(), strict=True):
        assert kept.frozen and kept.tables.keys() == memo.tables.keys(), name
        for position, table in memo.tables.items():
            assert np.array_equal(kept.tables[position], table)
    assert len(built.greedy.tables) > 0  # the all-greedy tables the pairs read are kept too
    assert list(path.parent.iterdir()) == [path]  # written whole: no temporary file left


def test_a_start_loads_kept_tables_without_building(tmp_path, monkeypatch) -> None:
    late_tables().save(tmp_path / exact.CACHE_NAME)
    fresh = exact.Tables()
    monkeypatch.setattr(fresh, "build", lambda: pytest.fail("built although kept"))
    fresh.load_or_build(tmp_path)
    assert fresh.ready


@pytest.mark.parametrize("kept", [b"not a numpy file", None, "cut short"])
def test_an_unreadable_or_partial_cache_is_built_again_and_kept(
    tmp_path, monkeypatch, caplog, kept
) -> None:
    path = tmp_path / exact.CACHE_NAME
    if kept is None:  # a file without the starting tables
        partial = late_tables()
        for memo in partial.pairs.values():
            memo.tables.clear()
        partial.save(path)
    elif kept == "cut short":  # shapes that hold more values than the file has
        late_tables().save(path)
        with np.load(path) as whole:
            arrays = {name: whole[name] for name in whole.files}
        with path.open("wb") as file:
            np.savez(file, **(arrays | {"values": arrays["values"][:-1]}))
    else:
        path.write_bytes(kept)
    fresh = exact.Tables()

    def build() -> None:  # the full minute stood in for by the late tables
        for (_, memo), (_, late) in zip(fresh._memos(), late_tables()._memos(), strict=True):
            memo.tables.update(late.tables)
        fresh.ready = True

    monkeypatch.setattr(fresh, "build", build)
    fresh.load_or_build(tmp_path)
    assert fresh.ready and "building Picker's tables again" in caplog.text
    again = exact.Tables()
    again.load(path)  # what was built is kept in its place
    assert again.ready


def test_tables_kept_by_other_versions_are_removed_once_these_are_kept(
    tmp_path, monkeypatch
) -> None:
    older = tmp_path / exact.CACHE_PATTERN.format("0123456789abcdef")
    older.write_bytes(b"tables of another version")
    unrelated = tmp_path / "something-else.npz"
    unrelated.write_bytes(b"not ours")
    fresh = exact.Tables()

    def build() -> None:  # the full minute stood in for by the late tables
        for (_, memo), (_, late) in zip(fresh._memos(), late_tables()._memos(), strict=True):
            memo.tables.update(late.tables)

    monkeypatch.setattr(fresh, "build", build)
    fresh.load_or_build(tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        exact.CACHE_NAME,
        "something-else.npz",
    ]


def test_the_suite_never_builds_the_tables_through_the_plugin(tmp_path) -> None:
    # tests/conftest.py stops TABLES.start; the plugin must look it up when called, or
    # every bot a test starts would build for a minute and switch Hard midway.
    PICKER.warm_up(tmp_path)
    assert not exact.TABLES.ready and not exact.TABLES._started
    assert list(tmp_path.iterdir()) == []
