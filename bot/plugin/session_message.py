"""The live message of any session: the shared lobby and closing screens around the
game's own drawing of play and of the end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.plugin.game_plugin import GamePlugin
from bot.render.layout import Block, Picture, Rendered, v2_problems
from bot.render.lobby import (
    closed_lobby_blocks,
    final_layout,
    lobby_blocks,
    lobby_layout,
    moved_blocks,
    waiting_block,
    with_continue,
    with_table,
)
from bot.render.ratings import rating_block
from bot.sessions.model import Ending, Session, Status


def render_session(
    session: Session,
    game: GamePlugin,
    events: Sequence[dict[str, Any]] = (),
    *,
    table: bool = False,
) -> Rendered:
    """The live message for the session as it is now; an ended game's is told from all
    its stored `events` (the live message's own log holds only the last few). With the
    `table` on, the lobby and a game in play offer Open the table."""
    renderer = game.renderer
    colour = renderer.colour.value
    if session.status is Status.LOBBY:
        options = renderer.options_lines(session.options, session.timer_seconds, session.hints)
        blocks = lobby_blocks(
            session,
            game=game.title,
            players=(game.adapter.min_players, game.adapter.max_players),
            options=options,
        )
        lobby = Rendered(blocks, lobby_layout(session), colour)
        return offering_table(lobby, session) if table else lobby
    if session.status is Status.PLAYING and session.game is not None:
        playing = renderer.playing(session)
        return offering_table(playing, session) if table else playing
    if session.game is None or session.ending is Ending.CANCELLED:
        return Rendered(closed_lobby_blocks(session, game=game.title), [])
    ended = renderer.final(session, list(events))
    layout = final_layout(session, reviewed=game.reviewer is not None)
    return replace(ended, blocks=with_ratings(ended.blocks, session), layout=layout)


def offering_table(message: Rendered, session: Session) -> Rendered:
    """`message` with Open the table, where Discord's limits leave room for it."""
    offered = replace(message, layout=with_table(message.layout, session))
    return message if v2_problems(offered) else offered


def with_ratings(blocks: tuple[Block, ...], session: Session) -> tuple[Block, ...]:
    """The game's end screen with the rating changes after its text: before its
    pictures and its footer (the last block)."""
    ratings = rating_block(session)
    if ratings is None or not blocks:
        return blocks
    at = len(blocks) - 1
    while at > 0 and isinstance(blocks[at - 1], Picture):
        at -= 1
    return (*blocks[:at], ratings, *blocks[at:])


def render_frozen(session: Session, game: GamePlugin) -> Rendered:
    """An older copy of the live message: where the game went, and no buttons."""
    return Rendered(moved_blocks(session, game=game.title), [])


def render_waiting(session: Session, game: GamePlugin, *, table: bool = False) -> Rendered:
    """The game as it is, with what happens next by itself and Continue: the last edit
    a message gets where only interactions reach it and nobody has clicked for a while."""
    playing = render_session(session, game, table=table)
    notice = waiting_block(session, session.seat_to_move(game.adapter))
    return Rendered(
        (*playing.blocks, notice), with_continue(playing.layout, session), playing.accent
    )
