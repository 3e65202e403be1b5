"""Every embed and button layout the bot can produce stays within Discord's limits."""

from __future__ import annotations

import random

import pytest

from bot.adapters.pickomino import PickominoAdapter
from bot.ai import Level, bot_name
from bot.game.pickomino import Face, Game, LowerTile, Phase, Rules
from bot.game.pickomino.events import event_to_dict
from bot.render.custom_ids import ButtonRef
from bot.render.layout import embed_problems, layout_problems
from bot.render.pickomino import (
    bot_level_layout,
    end_confirm_layout,
    render_frozen,
    render_session,
)
from bot.render.pickomino.buttons import MAX_CLAIM_BUTTONS
from bot.sessions.model import Ending, Seat, Session, Status
from cogs.pickomino._buttons import view_for

LONG_NAMES = [f"**_~`{i}` @everyone <@123> " + "W" * 40 for i in range(7)]
BIG_ID = 10**19


def _session(players: int, rules: Rules | None = None, bots: int = 0) -> Session:
    seats = [Seat(BIG_ID + i, LONG_NAMES[i]) for i in range(players - bots)]
    levels = list(Level)
    seats += [
        Seat(-1 - i, bot_name(levels[i % 3], i), is_bot=True, bot_level=levels[i % 3].value)
        for i in range(bots)
    ]
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


def test_lobby_with_bots_and_the_level_picker():
    session = _session(7, bots=6)
    _check(session)
    assert [b.label for b in render_session(session).layout[1]] == ["Add bot", "Remove bot"]
    levels = bot_level_layout(session)
    assert layout_problems(levels) == []
    assert [ButtonRef.parse(b.custom_id).arg for b in levels[0]] == ["easy", "normal", "hard"]
    steal = ButtonRef.parse("pko:move:1:2:claim:s22.-1")  # from a computer player
    assert steal is not None and steal.arg == "claim:s22.-1"


@pytest.mark.parametrize("seed", range(6))
def test_every_state_of_games_with_bots_and_hints(seed):
    """Steals from computer players (negative ids) and their disabled turns still fit."""
    rng = random.Random(seed)
    session = _session(2 + seed, bots=1 + seed)
    session.hints = seed % 2 == 0
    game = Game([seat.player_id for seat in session.seats])
    session.game, session.status = game, Status.PLAYING
    adapter = PickominoAdapter()
    while not game.is_over:
        _check(session)
        rendered = render_session(session)
        buttons = [b for row in rendered.layout for b in row]
        bot_turn = session.seat_by_player(game.current_player).is_bot
        assert any(":hint:" in b.custom_id for b in buttons) == (session.hints and not bot_turn)
        assert all(b.disabled for b in buttons) or not bot_turn
        level = session.seat_by_player(game.current_player).bot_level or "hard"
        session.remember(adapter.play(game, adapter.bot_move(game, level), rng))
        session.version += 1


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


def test_the_turn_text_lists_the_claims_that_have_a_button():
    # A steal always gets a button, so it is listed even when grill options are cut.
    session = _session(2, Rules(lower_tile=LowerTile.ANY))
    first, second = (seat.player_id for seat in session.seats)
    game = Game([first, second], Rules(lower_tile=LowerTile.ANY))
    game.grill.remove(36)
    game.stacks[second].append(36)
    game.kept = [Face.WORM] * 6 + [Face.THREE] * 2  # 36: take any grill tile or steal 36
    game.phase = Phase.CLAIM
    session.game, session.status = game, Status.PLAYING
    assert len(game.claim_options()) > MAX_CLAIM_BUTTONS
    rendered = render_session(session)
    buttons = [b.label for row in rendered.layout for b in row if ":claim:" in b.custom_id]
    turn = rendered.embed.fields[2].value
    assert "steal 36" in turn and any(label.startswith("Steal 36") for label in buttons)
    assert "take 22 " not in turn and "Take 22" not in buttons
    assert "take 23 " in turn and "Take 23" in buttons


def test_a_long_log_and_a_left_player():
    session = _session(7)
    game = Game([seat.player_id for seat in session.seats])
    session.game, session.status = game, Status.PLAYING
    for event in game.remove_player(session.seats[6].player_id):
        session.remember([event_to_dict(event)])
    session.seats[6].left = True
    _check(session)
