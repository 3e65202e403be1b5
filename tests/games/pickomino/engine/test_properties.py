"""Properties over thousands of random games (hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.pickomino.engine import ALL_TILES, Claim, Game, Keep, LowerTile, Rules, worms
from bot.games.pickomino.engine.events import Event, event_from_dict, event_to_dict
from bot.games.pickomino.engine.serialization import game_from_dict, game_to_dict

# A random game ends within a few hundred turns; this bound only stops a broken
# engine from looping forever, and is far above anything seen.
MAX_ACTIONS = 20_000

rules_strategy = st.builds(
    Rules,
    flip_on_empty_failure=st.booleans(),
    lower_tile=st.sampled_from(LowerTile),
)
seats = st.integers(min_value=2, max_value=7)
seeds = st.integers(min_value=0, max_value=2**32)


def random_step(game: Game, rng: random.Random) -> list[Event]:
    """One random legal action for the player to move."""
    keepable = game.keepable_faces()
    if keepable:
        return game.apply(Keep(rng.choice(keepable)))
    claims = game.claim_options()
    if claims and (not game.legal_actions().can_roll or rng.random() < 0.5):
        return game.apply(Claim(rng.choice(claims)))
    return game.roll_with(rng)


def check_invariants(game: Game) -> None:
    places = [*game.grill, *game.face_down, *(t for s in game.stacks.values() for t in s)]
    assert sorted(places) == list(ALL_TILES), "every tile is in exactly one place"
    assert game.grill == sorted(game.grill)
    for player, stack in game.stacks.items():
        assert game.score(player) == sum(worms(tile) for tile in stack)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, players=seats, rules=rules_strategy)
def test_random_games_keep_every_tile_in_one_place_and_end(
    seed: int, players: int, rules: Rules
) -> None:
    rng = random.Random(seed)
    game = Game([f"p{i}" for i in range(players)], rules, first=rng.randrange(players))
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        events = random_step(game, rng)
        check_invariants(game)
        for event in events:
            assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event
    assert game.is_over, "every game ends"
    assert game.grill == []
    standings = game.standings()
    assert [s.worms for s in standings] == sorted((s.worms for s in standings), reverse=True)
    assert {s.player: s.worms for s in standings} == game.scores()


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, players=seats, rules=rules_strategy, store_every=st.integers(1, 7))
def test_storing_and_loading_at_any_point_changes_nothing(
    seed: int, players: int, rules: Rules, store_every: int
) -> None:
    names = [f"p{i}" for i in range(players)]
    never_stored, reloaded = Game(names, rules), Game(names, rules)
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for step in range(MAX_ACTIONS):
        if never_stored.is_over:
            break
        if step % store_every == 0:
            stored = json.dumps(game_to_dict(reloaded))
            reloaded = game_from_dict(json.loads(stored))
        assert random_step(never_stored, rng_a) == random_step(reloaded, rng_b)
    assert reloaded.is_over
    assert game_to_dict(reloaded) == game_to_dict(never_stored)
