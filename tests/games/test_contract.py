"""The contract every registered game must meet (docs/ARCHITECTURE.md, "Adding a game"),
its table's scenes included (bot.plugin.table_scene).

Parametrised over the registry's games, and a game that lives only in the tests
(tests/fixtures/games/hilo): a new game is tested by registering it.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.games.registry import GAMES
from bot.i18n import catalog, with_locale
from bot.plugin.game_plugin import GamePlugin
from bot.plugin.session_message import render_session
from bot.plugin.table_scene import Scene, scene_of, start_scene
from bot.render.layout import layout_problems, v2_problems
from bot.sessions import lobby, play
from bot.sessions.adapter import IllegalMove
from bot.sessions.model import Ending, Seat, Session, Status
from bot.sessions.tools import ChangeTools
from tests.fixtures.games.hilo.plugin import HILO
from tests.table.accepting import refusal

MAX_STEPS = 5_000
SERVED = GAMES.with_game(HILO)


def _session(game: GamePlugin, players: int) -> Session:
    seats = [Seat(100 + index, f"Player {index}") for index in range(players)]
    return Session(game.kind, 1, 2, seats[0].user_id, seats, id=7, version=1)


@pytest.mark.parametrize("game", SERVED, ids=lambda game: game.kind)
def test_the_registry_finds_the_game_by_kind(game: GamePlugin) -> None:
    assert SERVED.plugin(game.kind) is game
    assert SERVED.adapters()[game.kind] is game.adapter
    assert game.adapter.kind == game.kind
    assert SERVED.scenario_player(game.kind) is game.play_scenario
    assert 2 <= game.adapter.min_players <= game.adapter.max_players
    assert game.adapter.bot_levels
    keys = catalog()
    assert f"{game.kind}.title" in keys
    assert all(f"lobby.bot_level.{level}" in keys for level in game.adapter.bot_levels)


@pytest.mark.parametrize("game", SERVED, ids=lambda game: game.kind)
@pytest.mark.parametrize("seed", range(3))
def test_computer_players_finish_a_game_that_survives_reloads_and_renders(
    game: GamePlugin, seed: int
) -> None:
    adapter, rng = game.adapter, random.Random(seed)
    players = game.adapter.min_players + seed % 2
    session = _session(game, players)
    session.game = adapter.new_game([seat.player_id for seat in session.seats], {}, rng)
    session.status = Status.PLAYING
    names = {seat.player_id: seat.name for seat in session.seats}
    for _ in range(MAX_STEPS):
        state = session.game
        if adapter.is_over(state):
            break
        player = adapter.current_player(state)
        assert player is not None
        rendered = render_session(session, game)
        assert v2_problems(rendered) == [] and layout_problems(rendered.layout) == []
        move = adapter.bot_move(
            adapter.copy(state), adapter.bot_levels[seed % len(adapter.bot_levels)]
        )
        other = next(p for p in names if p != player)
        with pytest.raises(IllegalMove):
            adapter.play(adapter.copy(state), other, move, rng)  # not theirs to play
        assert adapter.hint(adapter.copy(state), player, names)
        session.remember(adapter.play(state, player, move, rng))
        assert adapter.dump(adapter.load(adapter.dump(state))) == adapter.dump(state)
        session.version += 1
    assert adapter.is_over(session.game) and not adapter.is_abandoned(session.game)
    session.status = Status.OVER
    rendered = render_session(session, game)
    assert v2_problems(rendered) == [] and layout_problems(rendered.layout) == []


@pytest.mark.parametrize("game", SERVED, ids=lambda game: game.kind)
def test_leaving_and_abandoning_end_the_game_as_abandoned(game: GamePlugin) -> None:
    adapter, rng = game.adapter, random.Random(1)
    players = [str(100 + index) for index in range(game.adapter.min_players)]
    state = adapter.new_game(players, {}, rng)
    adapter.timeout(state, rng)
    assert not adapter.is_over(state)
    adapter.abandon(state)
    assert adapter.is_over(state) and adapter.is_abandoned(state)
    assert adapter.current_player(state) is None


# ---------------------------------------------------------------- the table's scenes

MAX_SCENE = 16 * 1024  # bytes of JSON a scene may take (the table's protocol)
WATCHER = 999  # someone in the Activity with no seat
MARKUP_NAME = "<b>Anne</b> & *co*"  # a name is text: it stays as given


def _checked(scene: Scene, session: Session | None, game: GamePlugin, viewer: int | None) -> str:
    """The scene as JSON, after checking every enabled action is accepted."""
    text = json.dumps(scene, ensure_ascii=False)
    assert len(text.encode()) <= MAX_SCENE
    for action in scene["actions"]:
        assert action["label"] and action["name"], action
        if action["enabled"]:
            assert refusal(session, game, viewer, action) is None, (action, scene["phase"])
    return text


@pytest.mark.parametrize("game", SERVED, ids=lambda game: game.kind)
def test_every_action_of_every_scene_is_accepted_from_lobby_to_end(game: GamePlugin) -> None:
    adapter, rng = game.adapter, random.Random(3)
    session = _session(game, adapter.min_players)
    session.seats[0].name = MARKUP_NAME
    host, other = session.seats[0].user_id, session.seats[1].user_id
    for viewer in (host, other, WATCHER, None):
        scene = scene_of(session, game, viewer)
        _checked(scene, session, game, viewer)
        assert scene["phase"] == "lobby" and scene["lobby"] is not None
        assert scene["players"][0]["name"] == MARKUP_NAME
    kinds = {action["action"] for action in scene_of(session, game, host)["actions"]}
    assert {"start", "bot", "leave", "cancel"} <= kinds
    assert "join" in {action["action"] for action in scene_of(session, game, WATCHER)["actions"]}
    tools = ChangeTools(adapter, rng, 0.0)
    session.remember(lobby.start(session, tools, host))
    for _ in range(MAX_STEPS):
        if adapter.is_over(session.game):
            break
        player = adapter.current_player(session.game)
        assert player is not None
        for viewer in (int(player), WATCHER):
            scene = scene_of(session, game, viewer, session.log[-2:])
            _checked(scene, session, game, viewer)
            moves = [action for action in scene["actions"] if action["action"] == "move"]
            assert scene["phase"] == "playing"
            assert bool(moves) == (viewer == int(player) and game.table is not None)
        move = adapter.bot_move(adapter.copy(session.game), adapter.bot_levels[-1])
        events = play.make_move(session, tools, int(player), move)
        session.remember(events)
        session.version += 1
    session.status, session.ending = Status.OVER, Ending.FINISHED
    for viewer in (host, WATCHER):
        scene = scene_of(session, game, viewer, events)
        text = _checked(scene, session, game, viewer)
        assert scene["phase"] == "ended" and scene["end"] is not None
        assert MARKUP_NAME in text
    kinds = {action["action"] for action in scene_of(session, game, host)["actions"]}
    assert "again" in kinds and ("review" in kinds) == (game.reviewer is not None)


def test_the_start_scene_opens_each_served_game() -> None:
    scene = start_scene(list(SERVED))
    assert scene["phase"] == "start" and scene["start"] is not None
    assert [choice["kind"] for choice in scene["start"]["games"]] == list(SERVED.kinds)
    for action in scene["actions"]:
        assert refusal(None, SERVED, 1, action) is None
    assert len(json.dumps(scene).encode()) <= MAX_SCENE


@pytest.mark.parametrize("game", SERVED, ids=lambda game: game.kind)
@pytest.mark.parametrize("locale", ["en", "de", "pl"])
def test_open_the_table_fits_on_the_lobby_and_every_turn_at_the_most_players(
    game: GamePlugin, locale: str
) -> None:
    """With the table on, the platform adds Open the table to the game's own buttons:
    within Discord's limits (5 a row, 40 components in all) at every state of games of
    computer players, the most players and hints on, in the longest languages too."""
    adapter, rng = game.adapter, random.Random(3)
    session = _session(game, adapter.max_players)
    session.hints = True
    with with_locale(locale):
        states = [render_session(session, game, table=True)]  # the lobby
        session.game = adapter.new_game([seat.player_id for seat in session.seats], {}, rng)
        session.status = Status.PLAYING
        for _ in range(MAX_STEPS):
            if adapter.is_over(session.game):
                break
            states.append(render_session(session, game, table=True))
            player = adapter.current_player(session.game)
            assert player is not None
            move = adapter.bot_move(adapter.copy(session.game), adapter.bot_levels[-1])
            session.remember(adapter.play(session.game, player, move, rng))
            session.version += 1
    for rendered in states:
        assert v2_problems(rendered) == [] and layout_problems(rendered.layout) == []
        ids = [component.custom_id for row in rendered.layout for component in row]
        assert sum(":table:" in custom_id for custom_id in ids) == 1, ids
