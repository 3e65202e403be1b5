"""The live message of any session: the shared lobby and closing screens around the
game's own drawing of play and of the end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.plugin import GamePlugin
from bot.render.layout import Rendered
from bot.render.lobby import (
    closed_lobby_embed,
    final_layout,
    lobby_embed,
    lobby_layout,
    moved_embed,
)
from bot.sessions.model import Ending, Session, Status


def render_session(
    session: Session, game: GamePlugin, events: Sequence[dict[str, Any]] = ()
) -> Rendered:
    """The live message for the session as it is now; an ended game's is told from all
    its stored `events` (the live message's own log holds only the last few)."""
    renderer = game.renderer
    if session.status is Status.LOBBY:
        options = renderer.options_lines(session.options, session.timer_seconds, session.hints)
        embed = lobby_embed(
            session,
            game=game.title,
            colour=renderer.colour,
            players=(game.adapter.min_players, game.adapter.max_players),
            options=options,
        )
        return Rendered(embed, lobby_layout(session))
    if session.status is Status.PLAYING and session.game is not None:
        return renderer.playing(session)
    if session.game is None or session.ending is Ending.CANCELLED:
        return Rendered(closed_lobby_embed(session, game=game.title), [])
    ended = renderer.final(session, list(events))
    return Rendered(ended.embed, final_layout(session), ended.picture)


def render_frozen(session: Session, game: GamePlugin) -> Rendered:
    """An older copy of the live message: where the game went, and no buttons."""
    return Rendered(moved_embed(session, game=game.title), [])
