"""Properties over thousands of random games (hypothesis), with and without Extrawurm."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.pickomino.engine import (
    AcceptFailure,
    Claim,
    ClaimOption,
    Face,
    Game,
    IllegalAction,
    Keep,
    LowerTile,
    Roll,
    Rules,
    Specialist,
    Weasel,
    worms,
)
from bot.games.pickomino.engine.actions import Action
from bot.games.pickomino.engine.events import Event, event_from_dict, event_to_dict
from bot.games.pickomino.engine.serialization import game_from_dict, game_to_dict

# A random game ends within a few hundred turns; this bound only stops a broken
# engine from looping forever, and is far above anything seen.
MAX_ACTIONS = 20_000

rules_strategy = st.builds(
    Rules,
    flip_on_empty_failure=st.booleans(),
    lower_tile=st.sampled_from(LowerTile),
    extrawurm=st.booleans(),
)
seats = st.integers(min_value=2, max_value=7)
seeds = st.integers(min_value=0, max_value=2**32)


def random_step(game: Game, rng: random.Random) -> list[Event]:
    """One random legal action for the player to move."""
    legal = game.legal_actions()
    if legal.can_weasel and rng.random() < 0.5:
        return game.weasel_with(rng)
    if legal.can_accept_failure:
        return game.apply(AcceptFailure())
    keepable = game.keepable_faces()
    if keepable:
        return game.apply(Keep(rng.choice(keepable)))
    claims = game.claim_options()
    if claims and (not game.legal_actions().can_roll or rng.random() < 0.5):
        return game.apply(Claim(rng.choice(claims)))
    return game.roll_with(rng)


def check_invariants(game: Game) -> None:
    held = [t for player in game.players for t in game.tiles_held(player)]
    places = [*game.grill, *game.face_down, *held]
    assert sorted(places) == list(game.layout.all_tiles), "every tile is in exactly one place"
    assert game.grill == sorted(game.grill)
    for player in game.players:
        tiles = game.tiles_held(player)
        assert game.score(player) == sum(map(worms, tiles)) + game.bratwurms(player)
    expansion = game.expansion
    if expansion is None:
        return
    assert expansion.total_bratwurms() == 7, "Bratwurm tokens are conserved"
    assert set(expansion.specialists) == set(Specialist), "every specialist has a place"
    spots = [place for place in expansion.specialists.values() if place is not None]
    assert len(spots) == len(set(spots)), "one specialist to a tile or a player"
    for place in spots:
        assert place in game.grill if type(place) is int else place in game.players
    assert expansion.specialists[Specialist.RAVEN] not in game.players
    assert all(len(extras) <= 1 for extras in expansion.extras.values())


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    assert not set(game.grill) & set(game.layout.stack_tiles), "no tile of 21-36 face up"
    standings = game.standings()
    assert [s.worms for s in standings] == sorted((s.worms for s in standings), reverse=True)
    assert {s.player: s.worms for s in standings} == game.scores()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


def illegal_actions(game: Game) -> list[Action]:
    """Actions the rules refuse now (each checked to raise below)."""
    legal = game.legal_actions()
    kept = set(game.kept)
    actions: list[Action] = [Keep(face) for face in Face if face not in legal.keepable]
    actions.append(Claim(ClaimOption.grill(37)))
    if not legal.can_roll:
        actions.append(Roll((Face.ONE,) * game.dice_left))
    else:
        actions.append(Roll((Face.ONE,) * (game.dice_left + 1)))
    if not legal.can_weasel:
        actions.append(Weasel((Face.ONE,) * game.dice_left))
    if not legal.can_accept_failure:
        actions.append(AcceptFailure())
    if kept and game.stacks:
        actions.append(Claim(ClaimOption.steal(36, game.current_player)))
    return actions


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, players=seats, rules=rules_strategy)
def test_illegal_actions_change_nothing(seed: int, players: int, rules: Rules) -> None:
    rng = random.Random(seed)
    game = Game([f"p{i}" for i in range(players)], rules, first=rng.randrange(players))
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        if rng.random() < 0.2:
            before = game_to_dict(game)
            for action in illegal_actions(game):
                with pytest.raises(IllegalAction):
                    game.apply(action)
                assert game_to_dict(game) == before, action
        random_step(game, rng)
    assert game.is_over
