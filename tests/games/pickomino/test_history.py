"""Pickomino's history: counters, story and standings derived from real engine event
streams by PICKOMINO_HISTORY.build_result."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.pickomino.engine import worms
from bot.games.pickomino.history import (
    BUSTS,
    PICKOMINO_HISTORY,
    STEALS,
    STOLEN_FROM,
    TILES,
    Outcome,
    Turn,
)
from bot.games.pickomino.render.summary import GameSummary
from bot.history.record import EndedGame, SeatInfo
from tests.history.games import ANNE, BRIDGET, CARL, ROBOT, THOMAS, play, result_of


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 7))
def test_a_finished_game_matches_the_engine(seed, players):
    seats = [ANNE, BRIDGET, THOMAS, CARL, ROBOT, *_extra(players)][:players]
    played = play(random.Random(seed), seats)
    result = result_of(played, seats, game_id=1, ended_at=1_700_000_000)
    game = played.game

    assert not result.abandoned
    standings = {standing.player: standing for standing in game.standings()}
    for player in result.players:
        key = str(player.user_id)
        tiles = player.end_state["tiles"]
        assert tiles == game.stacks[key]
        assert player.score == game.score(key) == sum(map(worms, tiles))
        assert player.rank == standings[key].rank
        assert player.won == (standings[key].rank == 1)
    types = [event["type"] for event in played.events]
    assert sum(p.details[TILES] for p in result.players) == types.count("took")
    assert sum(p.details[STEALS] for p in result.players) == types.count("stole")
    assert sum(p.details[STOLEN_FROM] for p in result.players) == types.count("stole")
    assert sum(p.details[BUSTS] for p in result.players) == types.count("failed")
    assert result.turns == len(result.story) == game.turn_number
    assert result.winners and all(p.rank == 1 for p in result.winners)
    assert result.has_bots == (players >= 5)


def test_the_story_keeps_each_turn_outcome_with_seats():
    seats = [ANNE, BRIDGET, THOMAS]
    played = play(random.Random(7), seats)
    result = result_of(played, seats, game_id=1, ended_at=1_700_000_000)
    outcomes = [e for e in played.events if e["type"] in ("took", "stole", "failed")]
    seat_of = {str(seat.user_id): index for index, seat in enumerate(seats)}
    for turn, event in zip(result.story, outcomes, strict=True):
        assert turn.seat == seat_of[event["player"]]
        assert turn.outcome == event["type"]
        if event["type"] == "stole":
            assert (turn.tile, turn.other) == (event["tile"], seat_of[event["victim"]])
        elif event["type"] == "failed":
            assert (turn.tile, turn.other) == (event["returned"], event["turned"])
        else:
            assert turn.tile == event["tile"]
        assert Turn.from_row(turn.to_row()) == turn


def test_a_player_who_left_has_no_rank_and_never_wins():
    seats = [ANNE, BRIDGET, THOMAS]
    played = play(random.Random(3), seats, leave_at_turn={THOMAS.user_id: 10})
    result = result_of(played, seats, game_id=1, ended_at=1_700_000_000)

    thomas = result.players[2]
    assert thomas.left and thomas.rank is None and not thomas.won
    assert thomas.end_state["tiles"] == [] and thomas.score == 0
    assert Turn(2, Outcome.LEFT) in result.story
    assert not result.abandoned
    assert {p.rank for p in result.players[:2]} <= {1, 2}


def test_a_game_abandoned_mid_play_keeps_its_standings_but_no_winner():
    seats = [ANNE, BRIDGET]
    played = play(random.Random(5), seats, leave_at_turn={BRIDGET.user_id: 12})
    assert played.game.abandoned and played.events[-1]["abandoned"]
    result = result_of(played, seats, game_id=1, ended_at=1_700_000_000)

    assert result.abandoned and result.winners == []
    anne = result.players[0]
    assert anne.rank == 1 and not anne.won
    assert anne.end_state["tiles"] == played.game.stacks[str(ANNE.user_id)]


def test_a_game_abandoned_in_the_lobby_has_no_events_at_all():
    result = PICKOMINO_HISTORY.build_result(
        EndedGame(
            game_id=9,
            guild_id=1,
            channel_id=2,
            started_at=10,
            ended_at=20,
            options={},
            players=[ANNE, BRIDGET],
            abandoned=True,
        ),
        [],
    )
    assert result.abandoned and result.story == [] and result.turns == 0
    assert [(p.score, p.rank, p.won) for p in result.players] == [(0, None, False)] * 2


def test_a_game_abandoned_without_a_game_over_event_keeps_the_stacks_the_events_built():
    seats = [ANNE, BRIDGET, THOMAS]
    played = play(random.Random(11), seats)
    cut = next(i for i, e in enumerate(played.events) if e["type"] == "took")
    events = played.events[: cut + 1]
    result = PICKOMINO_HISTORY.build_result(
        EndedGame(
            game_id=1,
            guild_id=1,
            channel_id=2,
            started_at=1,
            ended_at=2,
            options={},
            players=seats,
            abandoned=True,
        ),
        events,
    )
    taker = next(p for p in result.players if str(p.user_id) == events[cut]["player"])
    assert taker.end_state["tiles"] == [events[cut]["tile"]]
    assert taker.score == worms(events[cut]["tile"])
    assert not any(p.won for p in result.players)


def test_computer_players_flag_the_game():
    seats = [ANNE, ROBOT]
    result = result_of(play(random.Random(1), seats), seats, game_id=1, ended_at=1)
    assert result.has_bots and result.players[1].is_bot


def _extra(count: int) -> list[SeatInfo]:
    return [SeatInfo(200 + index, f"Guest {index}", False) for index in range(count)]


def test_a_leaver_s_bratwurms_go_back_to_the_supply_in_the_history_too():
    # The engine returns a leaver's Bratwurms to the supply; the history once kept them
    # as the leaver's score. Seeds where Thomas holds Bratwurms when he leaves:
    seats = [ANNE, BRIDGET, THOMAS]
    checked = 0
    for seed in range(12):
        played = play(
            random.Random(seed), seats, leave_at_turn={THOMAS.user_id: 15}, extrawurm=True
        )
        left = next(i for i, e in enumerate(played.events) if e["type"] == "left")
        thomas = str(THOMAS.user_id)
        gained = sum(e["player"] == thomas for e in played.events[:left] if e["type"] == "bratwurm")
        lost = sum(
            e.get("source") == thomas for e in played.events[:left] if e["type"] == "bratwurm"
        )
        if gained <= lost:
            continue
        checked += 1
        result = result_of(played, seats, game_id=1, ended_at=1)
        leaver = result.players[2]
        assert leaver.left and leaver.score == 0 and leaver.end_state == {"tiles": []}
        summary = GameSummary.from_events([str(seat.user_id) for seat in seats], played.events)
        assert summary.players[thomas].score_by_turn[-1] == 0
        for player in result.players[:2]:  # the others as the engine and the end picture say
            key = str(player.user_id)
            assert player.score == played.game.score(key)
            assert summary.players[key].score_by_turn[-1] == player.score
    assert checked >= 5
