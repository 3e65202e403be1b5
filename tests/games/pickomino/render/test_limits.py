"""Every live message (Components V2) and button layout the bot can produce stays within
Discord's limits, in English and in the two longest languages (German and Polish)."""

from __future__ import annotations

import random

import discord
import pytest

from bot.devserver.standin import _FormErrors, _validate_components
from bot.games.pickomino.adapter import PickominoAdapter, claim_move
from bot.games.pickomino.ai import Level, bot_name
from bot.games.pickomino.engine import ALL_TILES, Face, Game, LowerTile, Phase, Rules
from bot.games.pickomino.engine.events import event_to_dict
from bot.games.pickomino.plugin import PICKOMINO
from bot.games.pickomino.render.blocks import SPECIALIST_MARK
from bot.games.pickomino.render.turn_view import MAX_CLAIM_BUTTONS
from bot.games.pickomino.render.what_now import what_now
from bot.games.pickomino.render.what_now_words import offer_text
from bot.i18n import t, with_locale
from bot.plugin.session_message import render_frozen as render_frozen_of
from bot.plugin.session_message import render_session as render_session_of
from bot.render.custom_ids import ClickAction, ComponentRef
from bot.render.layout import Layout, MenuSpec, layout_problems, v2_problems
from bot.render.lobby import bot_level_layout, end_confirm_layout
from bot.sessions.model import Ending, Seat, Session, Status
from bot.ui.components import message_view, view_for

LONG_NAMES = [f"**_~`{i}` @everyone <@123> " + "W" * 40 for i in range(7)]
BIG_ID = 10**19


@pytest.fixture(params=["de", "pl"])
def language(request):
    """The test again in German and Polish, the longest languages."""
    with with_locale(request.param):
        yield request.param


in_long_languages = pytest.mark.usefixtures("language")


def render_session(session):
    return render_session_of(session, PICKOMINO)


def render_frozen(session):
    return render_frozen_of(session, PICKOMINO)


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
    with_table = render_session_of(session, PICKOMINO, table=True)
    for rendered in (render_session(session), render_frozen(session), with_table):
        assert v2_problems(rendered) == []
        assert layout_problems(rendered.layout) == []
        view = view_for(rendered.layout)  # discord.py refuses a row of more than 5 itself
        if view is not None:
            assert len(view.children) <= 25
            assert _discord_errors(view) == {}
        assert _discord_errors(message_view(rendered), v2=True) == {}
    # Open the table fits beside everything else, on the lobby and every turn.
    offered = session.status is Status.LOBBY or session.status is Status.PLAYING
    ids = [component.custom_id for row in with_table.layout for component in row]
    assert any(":table:" in custom_id for custom_id in ids) == offered
    game = session.game
    if session.status is Status.PLAYING and game is not None:
        assert _offered_claims(with_table.layout) == sorted(
            claim_move(option) for option in game.claim_options()
        )
        assert _offered_claims(render_session(session).layout) == sorted(
            claim_move(option) for option in game.claim_options()
        )


def _offered_claims(layout: Layout) -> list[str]:
    """The claim moves of a turn's buttons and menu: each claim must be offered once."""
    moves = []
    for component in (component for row in layout for component in row):
        if isinstance(component, MenuSpec):
            moves += [option.value for option in component.options]
        elif ":claim:" in component.custom_id:
            moves.append(ComponentRef.parse(component.custom_id).arg)
    return sorted(moves)


@pytest.mark.parametrize("locale", ["en", "de", "pl"])
def test_lobby_with_seven_long_names(locale):
    with with_locale(locale):
        _lobby_with_seven_long_names()


def _lobby_with_seven_long_names():
    session = _session(7)
    _check(session)
    assert layout_problems(end_confirm_layout(session)) == []


def test_lobby_with_bots_and_the_level_picker():
    session = _session(7, bots=6)
    _check(session)
    assert [b.label for b in render_session(session).layout[1]] == ["Add bot", "Remove bot"]
    levels = bot_level_layout(session, PICKOMINO.adapter.bot_levels)
    assert layout_problems(levels) == []
    assert [ComponentRef.parse(b.custom_id).arg for b in levels[0]] == ["easy", "normal", "hard"]
    steal = ComponentRef.parse("pko:move:1:2:claim:s22.-1")  # from a computer player
    assert steal is not None and steal.arg == "claim:s22.-1"


@in_long_languages
@pytest.mark.parametrize("seed", [5])
def test_every_state_of_a_seven_player_game_in_german_and_polish(seed):
    test_every_state_of_games_with_bots_and_hints(seed)


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
        session.remember(
            adapter.play(game, game.current_player, adapter.bot_move(game, level), rng)
        )
        session.version += 1


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("lower_tile", list(LowerTile))
def test_every_state_of_random_games(seed, lower_tile):
    rng = random.Random(seed)
    players = 2 + seed % 6
    session = _session(players, Rules(lower_tile=lower_tile))
    game = Game([seat.player_id for seat in session.seats], Rules(lower_tile=lower_tile))
    session.game, session.status, session.clock.turn_started = game, Status.PLAYING, 1.0e9
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
        session.remember(adapter.play(game, game.current_player, move, rng))
        session.version += 1
    session.status, session.ending = Status.OVER, Ending.FINISHED
    _check(session)
    session.ending = Ending.ABANDONED
    _check(session)


def _claim_state(session: Session, options: int, kind: str) -> Game:
    """A turn of the first player (any lower tile) that can end with `options` claims.

    "all": 8 worms (40), every grill tile below; "steal": 36 with every dice kept and 36
    on an opponent's stack; "roll": 7 worms (35) with 35 on an opponent's stack, so the
    last die may still be rolled. Tiles off the grill are turned face down.
    """
    players = [seat.player_id for seat in session.seats]
    game = Game(players, Rules(lower_tile=LowerTile.ANY))
    if kind == "all":
        game.kept, game.phase, grill_count, top = [Face.WORM] * 8, Phase.CLAIM, options, None
    elif kind == "steal":
        game.kept = [Face.WORM] * 6 + [Face.THREE] * 2
        game.phase, grill_count, top = Phase.CLAIM, options - 1, 36
    else:
        game.kept, game.phase, grill_count, top = [Face.WORM] * 7, Phase.ROLL, options - 1, 35
    game.grill, game.face_down = list(ALL_TILES[:grill_count]), list(ALL_TILES[grill_count:])
    if top is not None:
        game.face_down.remove(top)
        game.stacks[players[-1]].append(top)
    session.game, session.status = game, Status.PLAYING
    assert len(game.claim_options()) == options
    return game


# A steal needs a tile on the grill too (an empty grill has ended the game).
CLAIM_STATES = [("all", n) for n in range(1, 17)] + [("steal", n) for n in range(2, 17)]
CLAIM_STATES += [("roll", n) for n in range(2, 16)]  # 7 dice make at most 35


@pytest.mark.parametrize("bots", [0, 6])
@pytest.mark.parametrize(("kind", "options"), CLAIM_STATES)
def test_every_number_of_claims_is_offered_within_five_rows(kind, options, bots):
    """Up to 14 claims are buttons, as always; more (up to 16 with any lower tile, and 7
    players) are one menu under Roll. Either way every claim is offered, once."""
    session = _session(7, Rules(lower_tile=LowerTile.ANY), bots=bots)
    session.hints = True
    if bots:  # the computer player is to move: everything is shown, disabled
        session.seats = session.seats[1:] + session.seats[:1]
    game = _claim_state(session, options, kind)
    _check(session)
    rendered = render_session(session)
    layout = rendered.layout
    menus = [c for row in layout for c in row if isinstance(c, MenuSpec)]
    claim_buttons = [c for row in layout for c in row if ":claim:" in c.custom_id]
    assert len(layout) <= 5
    if options <= MAX_CLAIM_BUTTONS:
        assert menus == [] and len(claim_buttons) == options
    else:
        assert claim_buttons == [] and len(menus) == 1
        assert layout[1] == menus  # the row under Roll, by itself
        assert menus[0].placeholder == "Stop and take…"
        assert ComponentRef.parse(menus[0].custom_id).action is ClickAction.MENU
    assert all(c.disabled for row in layout for c in row) == bool(bots)
    turn = rendered.text
    assert "no button" not in turn
    in_menu = options > MAX_CLAIM_BUTTONS
    assert ("in the menu" in turn) == in_menu
    prompt = what_now(game, claims_in_menu=in_menu)
    assert prompt is not None
    if not in_menu:  # the prompt names every claim, as the buttons offer them
        assert len(prompt.args["offers"]) == options
        for offer in prompt.args["offers"]:
            assert offer_text(offer, session.name_of, SPECIALIST_MARK) in turn


@pytest.mark.parametrize("locale", ["en", "de", "pl"])
def test_the_claim_menu_of_the_worst_case(locale):
    """7 players, any lower tile, 16 claims: every grill tile below 36 and a steal."""
    with with_locale(locale):
        _the_claim_menu_of_the_worst_case()


def _the_claim_menu_of_the_worst_case():
    session = _session(7, Rules(lower_tile=LowerTile.ANY))
    game = _claim_state(session, 16, "steal")
    rendered = render_session(session)
    (menu,) = rendered.layout[1]
    assert isinstance(menu, MenuSpec)
    victim = session.name_of(game.players[-1])
    labels = [option.label for option in menu.options]
    take = t("pickomino.menu.take", tile=35, worms=4)
    assert labels[0] == take and labels[14] == t("pickomino.menu.take", tile=21, worms=1)
    steal = t("pickomino.menu.steal", tile=36, name=victim, worms=4)
    assert labels[15] == steal  # a label is plain text
    assert [option.value for option in menu.options][-2:] == [
        "claim:g21",
        f"claim:s36.{game.players[-1]}",
    ]
    assert [b.label for b in rendered.layout[0]] == [t("pickomino.button.roll")]
    # Roll, the menu and Hint: no face buttons while no roll is on the table.
    assert sum(len(row) for row in rendered.layout) == 1 + 1 + 1
    view = view_for(rendered.layout)
    assert _discord_errors(view) == {}
    (select,) = [item for item in view.children if isinstance(item.item, discord.ui.Select)]
    assert len(select.item.options) == 16
    assert select.item.placeholder == t("pickomino.menu.placeholder")
    assert select.item.min_values == select.item.max_values == 1


def _discord_errors(view: discord.ui.BaseView, v2: bool = False) -> dict:
    """What Discord would answer to these components (the e2e stand-in's own checks)."""
    errors = _FormErrors()
    _validate_components(errors, ("components",), view.to_components(), v2=v2)
    return errors.tree


@in_long_languages
def test_a_long_log_and_a_left_player_in_german_and_polish():
    test_a_long_log_and_a_left_player()


def test_a_long_log_and_a_left_player():
    session = _session(7)
    game = Game([seat.player_id for seat in session.seats])
    session.game, session.status = game, Status.PLAYING
    for event in game.remove_player(session.seats[6].player_id):
        session.remember([event_to_dict(event)])
    session.seats[6].left = True
    _check(session)
