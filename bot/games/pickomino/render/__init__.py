"""Everything a Pickomino session shows: one embed and its buttons, by session status."""

from __future__ import annotations

from bot.games.pickomino.engine import Game
from bot.games.pickomino.engine.game import MAX_PLAYERS
from bot.games.pickomino.render.buttons import (
    bot_level_layout,
    end_confirm_layout,
    final_layout,
    lobby_layout,
    turn_layout,
)
from bot.games.pickomino.render.embeds import final_embed, game_embed, lobby_embed
from bot.render.layout import Rendered
from bot.sessions.model import Ending, Session, Status


def render_session(session: Session) -> Rendered:
    """The live message for the session as it is now."""
    if session.status is Status.LOBBY:
        return Rendered(lobby_embed(session, MAX_PLAYERS), lobby_layout(session))
    game: Game | None = session.game
    if session.status is Status.PLAYING and game is not None:
        return Rendered(game_embed(session, game), turn_layout(session, game, session.name_of))
    buttons = final_layout(session) if session.ending is not Ending.CANCELLED else []
    return Rendered(final_embed(session, game), buttons)


def render_frozen(session: Session) -> Rendered:
    """An older copy of the live message: the same embed, no buttons."""
    return Rendered(render_session(session).embed, [])


__all__ = ["bot_level_layout", "end_confirm_layout", "render_frozen", "render_session"]
