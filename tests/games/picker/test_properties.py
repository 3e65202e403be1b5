"""Properties over thousands of random games (hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.picker.engine import (
    COLOURS,
    BecamePicker,
    Event,
    Game,
    GameOver,
    IllegalMove,
    Pick,
    Picked,
    RollDice,
    Rolled,
    RoundOver,
    event_from_dict,
    event_to_dict,
    game_from_dict,
    game_to_dict,
)
from tests.games.picker.helpers import random_step, seats

GAMES_PER_EXAMPLE = 10  # x max_examples: thousands of games in a few seconds

player_counts = st.integers(min_value=3, max_value=8)
seeds = st.integers(min_value=0, max_value=2**32)


def table_bonus(times: int) -> int:
    """The seed's table, written out: 2 -> 3, 3 -> 6, 4 -> 9, 5 -> 12, 6 or more -> 15."""
    return {0: 0, 1: 0, 2: 3, 3: 6, 4: 9, 5: 12}.get(times, 15)


def play_out(game: Game, rng: random.Random) -> list[Event]:
    events: list[Event] = []
    while not game.is_over:
        events += random_step(game, rng)
    return events


@settings(max_examples=150, deadline=None)
@given(count=player_counts, seed=seeds)
def test_rounds_dice_points_and_bonus_add_up(count: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(GAMES_PER_EXAMPLE):
        game = Game(seats(count), first=rng.randrange(count))
        events = play_out(game, rng)
        rounds: dict[int, list[Picked]] = defaultdict(list)
        round_number = 0
        kept: dict[str, list[Picked]] = defaultdict(list)
        for event in events:
            if isinstance(event, Rolled):
                round_number = event.round
            elif isinstance(event, Picked):
                rounds[round_number].append(event)
                kept[event.player].append(event)
        # Every game ends after 2N rounds, with one game-over event at the very end.
        assert game.round == 2 * count == len(rounds)
        assert sum(isinstance(e, RoundOver) for e in events) == 2 * count
        assert isinstance(events[-1], GameOver)
        assert sum(isinstance(e, GameOver) for e in events) == 1
        # Every die kept by exactly one player each round, every player keeping one.
        for picks in rounds.values():
            assert sorted(p.colour for p in picks) == sorted(game.colours)
            assert sorted(p.player for p in picks) == sorted(game.players)
        standings = {s.player: s for s in events[-1].standings}
        for player in game.players:
            numbers = [p.value for p in kept[player]]
            colours = Counter(p.colour for p in kept[player])
            bonus = sum(table_bonus(times) for times in colours.values())
            assert standings[player].points == sum(numbers) == game.points[player]
            assert standings[player].bonus == bonus
            assert standings[player].score == sum(numbers) + bonus
        # Ranks: one more than the players strictly ahead.
        scores = [s.score for s in standings.values()]
        for standing in standings.values():
            assert standing.rank == 1 + sum(score > standing.score for score in scores)


@settings(max_examples=150, deadline=None)
@given(count=player_counts, seed=seeds)
def test_the_picker_is_the_first_to_keep_the_lowest_number(count: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(GAMES_PER_EXAMPLE):
        game = Game(seats(count), first=rng.randrange(count))
        events = play_out(game, rng)
        dice: tuple[int, ...] = ()
        picker: str | None = None
        for index, event in enumerate(events):
            if isinstance(event, Rolled):
                dice, picker = event.dice, None
            elif isinstance(event, Picked) and event.value == min(dice) and picker is None:
                picker = event.player
                assert events[index + 1] == BecamePicker(event.player, event.value)
            elif isinstance(event, BecamePicker):
                assert event.player == picker
            elif isinstance(event, RoundOver):
                last = event.round == game.rounds_total
                assert event.next_first == (None if last else picker)


@settings(max_examples=60, deadline=None)
@given(count=player_counts, seed=seeds)
def test_store_and_reload_at_any_point_changes_nothing(count: int, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(seats(count), first=rng.randrange(count), computer=seats(count)[:1])
    while not game.is_over:
        stored = json.loads(json.dumps(game_to_dict(game)))
        reloaded = game_from_dict(stored)
        assert reloaded == game
        if rng.random() < 0.05 and game.people:
            leaver = rng.choice(game.people)
            assert reloaded.remove_player(leaver) == game.remove_player(leaver)
            continue
        step_seed = rng.randrange(2**32)
        events = random_step(game, random.Random(step_seed))
        assert random_step(reloaded, random.Random(step_seed)) == events
        assert reloaded == game
        for event in events:
            assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event
    assert game_from_dict(game_to_dict(game)) == game


def illegal_actions(game: Game, rng: random.Random) -> list[object]:
    """A few actions the rules refuse in the game's position."""
    count = len(game.players)
    wrong_count = RollDice(tuple(rng.randint(1, 6) for _ in range(count + rng.choice((-1, 1)))))
    bad_value = RollDice((rng.choice((0, 7, -1)), *(1 for _ in range(count - 1))))
    actions: list[object] = [wrong_count, bad_value, Pick("pink"), "roll"]  # type: ignore[arg-type]
    if game.legal_actions().can_roll:
        actions.append(Pick(rng.choice(game.colours)))
    else:
        actions.append(RollDice(tuple(rng.randint(1, 6) for _ in range(count))))
        taken = [c for c in game.colours if c not in game.available()]
        if taken:
            actions.append(Pick(rng.choice(taken)))
    if count < len(COLOURS):
        actions.append(Pick(COLOURS[count]))
    return actions


@settings(max_examples=60, deadline=None)
@given(count=player_counts, seed=seeds)
def test_illegal_actions_change_nothing(count: int, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(seats(count), first=rng.randrange(count))
    while True:
        before = game_to_dict(game)
        for action in illegal_actions(game, rng) if not game.is_over else [RollDice((1, 2, 3))]:
            try:
                game.apply(action)  # type: ignore[arg-type]
            except IllegalMove as refused:
                assert refused.key.startswith("picker.illegal.")
            else:
                raise AssertionError(f"{action!r} was accepted")
            assert game_to_dict(game) == before
        if game.is_over:
            break
        random_step(game, rng)
