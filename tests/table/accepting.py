"""Whether the platform and the game accept a scene's action: each is done on a copy of
the session through the functions a click goes through (bot.sessions.lobby, .play),
so a button the table shows is one the server can carry out."""

from __future__ import annotations

import random

from bot.plugin.game_plugin import GamePlugin
from bot.plugin.games import Games
from bot.plugin.table_scene import START, Action
from bot.render.custom_ids import ClickAction
from bot.sessions import lobby, play
from bot.sessions.adapter import IllegalMove
from bot.sessions.errors import SessionError
from bot.sessions.model import Ending, Seat, Session, Status
from bot.sessions.tools import ChangeTools

NOW = 1_800_000_000.0


def refusal(
    session: Session | None, game: GamePlugin | Games, viewer: int | None, action: Action
) -> str | None:
    """None when `viewer` may do `action` now, else why not."""
    try:
        _do(session, game, viewer, action)
    except (SessionError, IllegalMove) as error:
        return f"{type(error).__name__}: {error}"
    except AssertionError as error:
        return str(error) or "refused"
    return None


def _do(
    session: Session | None, game: GamePlugin | Games, viewer: int | None, action: Action
) -> None:
    kind, arg = action["action"], action["arg"]
    if kind == START:
        assert isinstance(game, Games) and arg in game, f"no game {arg!r} to open"
        return
    assert session is not None and isinstance(game, GamePlugin), f"{kind} with no session"
    assert viewer is not None, "a watcher with no identity acts"
    adapter = game.adapter
    draft = session.copy(adapter)
    tools = ChangeTools(adapter, random.Random(0), NOW)
    match ClickAction(kind):
        case ClickAction.MOVE:
            play.make_move(draft, tools, viewer, arg)
        case ClickAction.HINT:
            assert session.hints, "hints are off"
            play.player_to_move(draft, adapter, viewer)
        case ClickAction.END:
            play.end(draft, tools, viewer, moderator=False)
        case ClickAction.JOIN:
            lobby.join(draft, tools, Seat(viewer, "Newcomer"))
        case ClickAction.LEAVE:
            lobby.leave(draft, tools, viewer)
        case ClickAction.START:
            lobby.start(draft, tools, viewer)
        case ClickAction.CANCEL:
            lobby.cancel(draft, tools, viewer, moderator=False)
        case ClickAction.BOT:
            assert arg in adapter.bot_levels, f"no level {arg!r}"
            seat = Seat(lobby.next_bot_id(draft), "Bot", is_bot=True, bot_level=arg)
            lobby.add_bot(draft, tools, viewer, seat)
        case ClickAction.DROP_BOT:
            lobby.remove_bot(draft, tools, viewer)
        case ClickAction.AGAIN:
            assert session.status is Status.OVER, "Play again before the end"
            assert session.seat(viewer) is not None, "Play again by someone not in the game"
            assert not session.practice, "Play again after a practice game"
        case ClickAction.REVIEW:
            assert game.reviewer is not None, "Review of a game with no reviewer"
            assert session.ending is Ending.FINISHED, "Review of an unfinished game"
        case _:
            raise AssertionError(f"{kind} is no table action")
