"""Every embed and button layout the bot can produce stays within Discord's limits."""

from __future__ import annotations

import random

import pytest

from bot.adapters.pickomino import PickominoAdapter
from bot.game.pickomino import Face, Game, LowerTile, Phase, Rules
from bot.game.pickomino.events import event_to_dict
from bot.render.layout import embed_problems, layout_problems
from bot.render.pickomino import end_confirm_layout, render_frozen, render_session
from bot.render.pickomino.buttons import MAX_CLAIM_BUTTONS
from bot.sessions.model import Ending, Seat, Session, Status
from cogs.pickomino._buttons import view_for

LONG_NAMES = [f"**_~`{i}` @everyone <@123> " + "W" * 40 for i in range(7)]
BIG_ID = 10**19


def _session(players: int, rules: Rules | None = None) -> Session:
    seats = [Seat(BIG_ID + i, LONG_NAMES[i]) for i in range(players)]
    session = Session(
        kind="pickomino",
        guild_id=BIG_ID,
        channel_id=BIG_ID,
        host_id=seats[0].user_id,
        seats=seats,
        options=(rules or Rules()).to_dict(),
        timer_seconds=300,
        id=10**12,
        version=10**9,
    )
    return session


def _check(session: Session) -> None:
    for rendered in (render_session(session), render_frozen(session)):
        assert embed_problems(rendered.embed) == []
        assert layout_problems(rendered.layout) == []
        view = view_for(rendered.layout)  # discord.py refuses a row of more than 5 itself
        if view is not None:
            assert len(view.children) <= 25


def test_lobby_with_seven_long_names():
    session = _session(7)
    _check(session)
    assert layout_problems(end_confirm_layout(session)) == []


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("lower_tile", list(LowerTile))
def test_every_state_of_random_games(seed, lower_tile):
    rng = random.Random(seed)
    players = 2 + seed % 6
    session = _session(players, Rules(lower_tile=lower_tile))
    game = Game([seat.player_id for seat in session.seats], Rules(lower_tile=lower_tile))
    session.game, session.status, session.turn_started = game, Status.PLAYING, 1.0e9
    adapter = PickominoAdapter()
    while not game.is_over:
        _check(session)
        if game.keepable_faces():
            move = f"keep:{rng.choice(game.keepable_faces()).symbol.lower()}"
        elif game.claim_options() and (game.phase is Phase.CLAIM or rng.random() < 0.7):
            option = rng.choice(game.claim_options())
            move = "claim:" + (
                f"s{option.tile}.{option.victim}" if option.victim else f"g{option.tile}"
            )
        else:
            move = "roll"
        session.remember(adapter.play(game, move, rng))
        session.version += 1
    session.status, session.ending = Status.OVER, Ending.FINISHED
    _check(session)
    session.ending = Ending.ABANDONED
    _check(session)


def test_the_most_claim_options_fit_in_five_rows():
    session = _session(7, Rules(lower_tile=LowerTile.ANY))
    game = Game([seat.player_id for seat in session.seats], Rules(lower_tile=LowerTile.ANY))
    game.kept = [Face.WORM] * 8  # 40: every grill tile is below it
    game.phase = Phase.CLAIM
    session.game, session.status = game, Status.PLAYING
    assert len(game.claim_options()) > MAX_CLAIM_BUTTONS
    rendered = render_session(session)
    claims = [b for row in rendered.layout for b in row if ":claim:" in b.custom_id]
    assert len(claims) == MAX_CLAIM_BUTTONS
    assert len(rendered.layout) == 5
    _check(session)
    assert "have no button" in rendered.embed.fields[2].value


def test_a_long_log_and_a_left_player():
    session = _session(7)
    game = Game([seat.player_id for seat in session.seats])
    session.game, session.status = game, Status.PLAYING
    for event in game.remove_player(session.seats[6].player_id):
        session.remember([event_to_dict(event)])
    session.seats[6].left = True
    _check(session)
