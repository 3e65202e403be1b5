"""Lobby rules: joining, computer players, leaving, starting and cancelling, as changes
to a session draft.

Each function checks first and raises a SessionError before it changes anything.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from bot.sessions.adapter import AnyAdapter, GameEvent
from bot.sessions.errors import (
    AlreadyJoined,
    HostOnly,
    LobbyFull,
    NoBotToRemove,
    NotEnoughPlayers,
    NotHost,
    NotInGame,
    NotInLobby,
)
from bot.sessions.model import Ending, Seat, Session, Status
from bot.sessions.tools import ChangeTools


def join(session: Session, tools: ChangeTools, seat: Seat) -> list[GameEvent]:
    _require_lobby(session)
    if session.seat(seat.user_id) is not None:
        raise AlreadyJoined()
    if len(session.active_seats) >= tools.adapter.max_players:
        raise LobbyFull(max=tools.adapter.max_players)
    session.seats = [s for s in session.seats if s.user_id != seat.user_id]
    session.seats.append(seat)
    return []


def add_bot(session: Session, tools: ChangeTools, user_id: int, seat: Seat) -> list[GameEvent]:
    """The host seats a computer player (`seat.is_bot`)."""
    check_add_bot(session, user_id, tools.adapter.max_players)
    session.seats.append(seat)
    return []


def check_add_bot(session: Session, user_id: int, max_players: int) -> None:
    """Raise unless `user_id` may seat one more computer player now (also checked before
    the levels are offered)."""
    _require_lobby(session)
    _require_host(session, user_id)
    if len(session.active_seats) >= max_players:
        raise LobbyFull(max=max_players)


def remove_bot(session: Session, tools: ChangeTools, user_id: int) -> list[GameEvent]:
    """The host takes away the computer player added last."""
    _require_lobby(session)
    _require_host(session, user_id)
    bots = session.bot_seats
    if not bots:
        raise NoBotToRemove()
    session.seats = [seat for seat in session.seats if seat is not bots[-1]]
    return []


def bot_seat(session: Session, adapter: AnyAdapter, level: str) -> Seat:
    """A new computer player of `level`, named unlike anyone at the table."""
    taken = {seat.name for seat in session.seats}
    names = (adapter.bot_name(level, index) for index in itertools.count())
    name = next(name for name in names if name not in taken)
    return Seat(next_bot_id(session), name, is_bot=True, bot_level=level)


def next_bot_id(session: Session) -> int:
    """A seat id no Discord user has: computer players count down from -1."""
    lowest = min((seat.user_id for seat in session.seats), default=0)
    return min(lowest, 0) - 1


def leave(session: Session, tools: ChangeTools, user_id: int) -> list[GameEvent]:
    """Leave the lobby; the next person becomes host, and a lobby with nobody closes."""
    _require_lobby(session)
    if session.seat(user_id) is None:
        raise NotInGame()
    session.seats = [seat for seat in session.seats if seat.user_id != user_id]
    people = [seat for seat in session.seats if not seat.is_bot]
    if not people:
        _close(session, tools, Ending.CANCELLED)
    elif session.host_id == user_id:
        session.host_id = people[0].user_id
    return []


def start(session: Session, tools: ChangeTools, user_id: int) -> list[GameEvent]:
    """The host starts the game with the seated players."""
    _require_lobby(session)
    if user_id != session.host_id:
        raise NotHost(name=session.host_name)
    adapter = tools.adapter
    if len(session.seats) < adapter.min_players:
        raise NotEnoughPlayers(min=adapter.min_players)
    # The host sits first: a "host starts" option then means seat 0.
    host = next(seat for seat in session.seats if seat.user_id == user_id)
    session.seats = [host, *(seat for seat in session.seats if seat is not host)]
    players = [seat.player_id for seat in session.seats]
    return _play(session, tools, adapter.new_game(players, session.options, tools.rng))


def begin_practice(
    session: Session, tools: ChangeTools, new_game: Callable[[Sequence[str], Any], Any]
) -> list[GameEvent]:
    """A practice game (/<game> learn) starts at once, with no lobby to wait in: its
    game is the tutorial's `new_game(players, dice)`, rolled with the change's dice (a
    practice game's are scripted)."""
    _require_lobby(session)
    return _play(session, tools, new_game([seat.player_id for seat in session.seats], tools.rng))


def _play(session: Session, tools: ChangeTools, game: Any) -> list[GameEvent]:
    """The lobby's game begins: `game` is its state."""
    session.game = game
    session.status = Status.PLAYING
    session.started_at = int(tools.now)
    return []


def cancel(
    session: Session, tools: ChangeTools, user_id: int, *, moderator: bool
) -> list[GameEvent]:
    """The host, or a member who may manage messages, closes the lobby."""
    check_cancel(session, user_id, moderator=moderator)
    _close(session, tools, Ending.CANCELLED)
    return []


def check_cancel(session: Session, user_id: int, *, moderator: bool) -> None:
    """Raise unless `user_id` may close the lobby now (also checked before the host is
    asked to confirm)."""
    _require_lobby(session)
    check_may_close(session, user_id, moderator=moderator)


def check_may_close(session: Session, user_id: int, *, moderator: bool) -> None:
    """Raise NotHost unless `user_id` hosts the session or is a moderator (who may close
    anyone's lobby or game): the rule for Cancel and End, at every stage."""
    if user_id != session.host_id and not moderator:
        raise NotHost(name=session.host_name)


def _require_host(session: Session, user_id: int) -> None:
    if user_id != session.host_id:
        raise HostOnly(name=session.host_name)


def _require_lobby(session: Session) -> None:
    if session.status is not Status.LOBBY:
        raise NotInLobby()


def _close(session: Session, tools: ChangeTools, ending: Ending) -> None:
    session.status = Status.OVER
    session.ending = ending
    session.ended_at = int(tools.now)
