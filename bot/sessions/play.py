"""In-game changes to a session draft: a move, a computer player's step, leaving, ending,
and the turn timer.

Each function checks first and raises a SessionError before it changes anything; the
game adapter raises IllegalMove with the game untouched.
"""

from __future__ import annotations

import logging

from bot.sessions import lobby
from bot.sessions.adapter import AnyAdapter, GameEvent, IllegalMove
from bot.sessions.errors import MoveRefused, NotInGame, NotPlaying, NotYourTurn
from bot.sessions.model import Seat, Session, Status
from bot.sessions.tools import ChangeTools

log = logging.getLogger(__name__)

STRIKES_TO_REMOVE = 3  # consecutive timer expiries that remove a player


def make_move(session: Session, tools: ChangeTools, user_id: int, move: str) -> list[GameEvent]:
    """The current player plays `move` (a button's move string)."""
    seat = player_to_move(session, tools.adapter, user_id)
    try:
        events = tools.adapter.play(session.game, seat.player_id, move, tools.rng)
    except IllegalMove as refusal:
        raise MoveRefused(refusal.key, **refusal.params) from None
    session.clock.strikes.pop(seat.player_id, None)  # they are here: the count starts again
    return events


def player_to_move(session: Session, adapter: AnyAdapter, user_id: int) -> Seat:
    """The seat of `user_id` when it is their turn; else raise why not. Changes nothing,
    so read-only requests (a hint) check a turn the same way as a move."""
    _require_playing(session)
    seat = session.seat(user_id)
    if seat is None:
        raise NotInGame()
    current = adapter.current_player(session.game)
    if current != seat.player_id:
        raise NotYourTurn(name=session.name_of(current or ""))
    return seat


def bot_step(session: Session, tools: ChangeTools, move: str | None) -> list[GameEvent]:
    """A computer player's step: `move` as it decided, or None when deciding failed.

    A move the game refuses, or none at all, ends the turn as the timer would, so a
    faulty computer player never holds up a game.
    """
    _require_playing(session)
    adapter = tools.adapter
    seat = session.seat_to_move(adapter)
    if seat is None or not seat.computer_plays:
        return []  # a person moved in the meantime (cannot happen under the lock)
    if move is not None:
        try:
            return adapter.play(session.game, seat.player_id, move, tools.rng)
        except IllegalMove:
            log.exception("computer player %s made an illegal move %r", seat.name, move)
    return adapter.timeout(session.game, tools.rng)


def leave(session: Session, tools: ChangeTools, user_id: int) -> list[GameEvent]:
    """A player leaves mid-game: their tiles go back; under two players, or with only
    computer players left, abandoned."""
    _require_playing(session)
    seat = session.seat(user_id)
    if seat is None:
        raise NotInGame()
    seat.left = True
    events = tools.adapter.remove_player(session.game, seat.player_id)
    return events + _abandon_without_people(session, tools)


def end(session: Session, tools: ChangeTools, user_id: int, *, moderator: bool) -> list[GameEvent]:
    """The host, or a member who may manage messages, abandons the game."""
    _require_playing(session)
    lobby.check_may_close(session, user_id, moderator=moderator)
    return tools.adapter.abandon(session.game)


def expire_turn(session: Session, tools: ChangeTools) -> list[GameEvent]:
    """The turn timer ran out: end the turn for the player; a third expiry in a row removes them."""
    _require_playing(session)
    adapter = tools.adapter
    player = adapter.current_player(session.game)
    if player is None:
        return []
    events = adapter.timeout(session.game, tools.rng)
    strikes = session.clock.strikes.get(player, 0) + 1
    session.clock.strikes[player] = strikes
    if strikes >= STRIKES_TO_REMOVE and not adapter.is_over(session.game):
        seat = session.seat_by_player(player)
        if seat is not None:
            seat.left = True
        session.clock.strikes.pop(player, None)
        events.extend(adapter.remove_player(session.game, player))
        events.extend(_abandon_without_people(session, tools))
    return events


def _abandon_without_people(session: Session, tools: ChangeTools) -> list[GameEvent]:
    if session.has_people or tools.adapter.is_over(session.game):
        return []
    return tools.adapter.abandon(session.game)


def _require_playing(session: Session) -> None:
    if session.status is not Status.PLAYING:
        raise NotPlaying()
