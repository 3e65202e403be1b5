"""What a person asks of the channel's session, whoever carries it (a click on the live
message, or an action at the table): an `Actor` and an action's name and argument
become one change (`mutation_for`), checked by the rules of bot.sessions.lobby and
bot.sessions.play, so both ways refuse the same things for the same reasons.

Action names are the click actions' (bot.render.custom_ids.ClickAction is a StrEnum of
them): `join`, `leave`, `start`, `dropbot`, `move` (and `menu`: the option picked is the
move), `bot` (the argument is the computer player's level), `end`, `cancel`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.sessions import lobby, play
from bot.sessions.adapter import GameEvent
from bot.sessions.errors import NotInGame, StaleButton, UnknownAction
from bot.sessions.model import Place, Seat, Session, Status
from bot.sessions.service import Mutation
from bot.sessions.tools import ChangeTools


@dataclass(frozen=True, slots=True)
class Actor:
    """Who asks: a person's Discord id, display name and language (our code,
    bot.i18n.LOCALES); `moderator`, whether they may close anyone's lobby or game there
    (a member who may manage messages; nobody at the table, where that is unknown)."""

    user_id: int
    name: str
    locale: str
    moderator: bool = False

    def seat(self) -> Seat:
        """The seat the person takes, in their language."""
        return Seat(self.user_id, self.name, is_bot=False, locale=self.locale)


def remembering_locale(actor: Actor, mutate: Mutation) -> Mutation:
    """`mutate`, and the actor's seat takes their language: what is addressed to them
    alone later (their turn's ping) is in the language they last acted in."""

    def change(session: Session, tools: ChangeTools) -> list[Any]:
        events = mutate(session, tools)
        seat = session.seat(actor.user_id)
        if seat is not None and not seat.is_bot:
            seat.locale = actor.locale
        return events

    return change


def join(actor: Actor, _: str) -> Mutation:
    seat = actor.seat()
    return lambda session, tools: lobby.join(session, tools, seat)


def leave_lobby(actor: Actor, _: str) -> Mutation:
    return lambda session, tools: lobby.leave(session, tools, actor.user_id)


def leave(actor: Actor, _: str = "") -> Mutation:
    """Leave the lobby, or the game in play (/<game> leave, and the table's Leave)."""

    def leave_table(session: Session, tools: ChangeTools) -> list[GameEvent]:
        if session.status is Status.LOBBY:
            return lobby.leave(session, tools, actor.user_id)
        return play.leave(session, tools, actor.user_id)

    return leave_table


def start(actor: Actor, _: str) -> Mutation:
    return lambda session, tools: lobby.start(session, tools, actor.user_id)


def drop_bot(actor: Actor, _: str) -> Mutation:
    return lambda session, tools: lobby.remove_bot(session, tools, actor.user_id)


def move(actor: Actor, move_text: str) -> Mutation:
    return lambda session, tools: play.make_move(session, tools, actor.user_id, move_text)


def add_bot(actor: Actor, level: str) -> Mutation:
    """The host seats a computer player of `level` (one of the game's levels, else
    StaleButton: a level the game no longer has)."""

    def add(session: Session, tools: ChangeTools) -> list[GameEvent]:
        if level not in tools.adapter.bot_levels:
            raise StaleButton()
        seat = lobby.bot_seat(session, tools.adapter, level)
        return lobby.add_bot(session, tools, actor.user_id, seat)

    return add


def end(actor: Actor, _: str = "") -> Mutation:
    """Close the lobby, or abandon the game in play: the host's, or a moderator's."""

    def close(session: Session, tools: ChangeTools) -> list[GameEvent]:
        if session.status is Status.LOBBY:
            return _cancel(session, tools, actor)
        return play.end(session, tools, actor.user_id, moderator=actor.moderator)

    return close


def cancel(actor: Actor, _: str = "") -> Mutation:
    """Close the lobby (the host's, or a moderator's); a game in play is not a lobby."""
    return lambda session, tools: _cancel(session, tools, actor)


def _cancel(session: Session, tools: ChangeTools, actor: Actor) -> list[GameEvent]:
    events = lobby.cancel(session, tools, actor.user_id, moderator=actor.moderator)
    session.closed_by = actor.name
    return events


# Each action that changes the channel's session, by its name: what it changes.
MUTATIONS: dict[str, Callable[[Actor, str], Mutation]] = {
    "join": join,
    "leave": leave_lobby,
    "start": start,
    "dropbot": drop_bot,
    "move": move,
    "menu": move,  # a move menu: the option picked is the move
    "bot": add_bot,
    "end": end,
    "cancel": cancel,
}


def mutation_for(actor: Actor, action: str, arg: str = "") -> Mutation:
    """The change `actor` asks for by `action` (with its `arg`); UnknownAction for a
    name that changes nothing here. The change itself checks the rules when applied."""
    make = MUTATIONS.get(action)
    if make is None:
        raise UnknownAction()
    return make(actor, arg)


def ended_game(
    old: Session | None, channel_id: int, user_id: int, *, practice: bool = False
) -> Session:
    """`old`, if it is an ended game (with `practice`, practice game) of this channel that
    `user_id` played in: what Play again (and Start a real game) start from. Else
    StaleButton, or NotInGame for someone who was not at the table."""
    if (
        old is None
        or (practice and not old.practice)
        or old.status is not Status.OVER
        or old.channel_id != channel_id
    ):
        raise StaleButton()
    if old.seat(user_id) is None:
        raise NotInGame()
    return old


def play_again(old: Session, actor: Actor, place: Place) -> Session:
    """The lobby that follows the ended game `old` (Play again): its players, options,
    timer, hints and language, hosted by `actor`."""
    host = actor.seat()
    others = [
        Seat(seat.user_id, seat.name, seat.is_bot, seat.bot_level, locale=seat.locale)
        for seat in old.active_seats
        if seat.user_id != host.user_id
    ]
    return Session(
        kind=old.kind,
        guild_id=old.guild_id,
        channel_id=old.channel_id,
        host_id=host.user_id,
        seats=[host, *others],
        options=dict(old.options),
        timer_seconds=old.timer_seconds,
        hints=old.hints,
        language=old.language,
        place=place,
    )
