"""Commit listeners: told once per commit, in commit order, whatever made the change (a
click's update, a lobby opened, a turn timer, a computer player's step, /<game> leave
and end); a failing one is logged once and the change stands."""

from __future__ import annotations

import logging
import random

import pytest

from bot.sessions import actions, lobby, play
from bot.sessions.actions import Actor
from bot.sessions.errors import NotPlaying
from bot.sessions.model import Seat, Session, Status
from bot.sessions.service import Change, SessionService
from tests.sessions.test_service import CHANNEL, Clock, Race


class Heard:
    """A listener that writes down what it is told: (session id, version, status)."""

    def __init__(self) -> None:
        self.changes: list[tuple[int | None, int, Status]] = []

    def __call__(self, change: Change) -> None:
        session = change.session
        self.changes.append((session.id, session.version, session.status))


def _lobby(*seats: Seat, timer: int | None = None) -> Session:
    return Session(
        "race",
        guild_id=9,
        channel_id=CHANNEL,
        host_id=seats[0].user_id,
        seats=list(seats),
        timer_seconds=timer,
    )


@pytest.fixture
async def service(database):
    service = SessionService(database, {"race": Race()}, rng=random.Random(1))
    yield service
    await service.close()


@pytest.fixture
async def clocked(database):
    clock = Clock()
    service = SessionService(
        database, {"race": Race()}, rng=random.Random(1), clock=clock, bot_step_seconds=1.0
    )
    yield service, clock
    await service.close()


async def test_each_commit_is_told_once_in_commit_order_whatever_made_it(clocked):
    service, clock = clocked
    heard = Heard()
    service.commit_listeners.append(heard)
    anne, bob = Actor(1, "Anne", "en"), Actor(2, "Bob", "de")

    session = await service.open(_lobby(anne.seat(), timer=60))
    assert heard.changes == [(session.id, 1, Status.LOBBY)]  # opened
    await service.update(CHANNEL, actions.mutation_for(bob, "join"))  # a click
    await service.update(CHANNEL, actions.mutation_for(anne, "start"))
    await service.update(CHANNEL, actions.mutation_for(anne, "move", "add"))
    assert [version for _, version, _ in heard.changes] == [1, 2, 3, 4]

    live = service.in_memory(CHANNEL)
    assert live is not None and live.deadline is not None
    clock.now = live.deadline + 1
    await service.run_timer(CHANNEL)  # Bob's turn runs out
    assert heard.changes[-1][1] == 5

    await service.update(CHANNEL, actions.leave(bob))  # /<game> leave: abandoned
    assert heard.changes[-1] == (session.id, 6, Status.OVER)
    assert len(heard.changes) == 6


async def test_a_computer_players_step_and_an_end_are_told(clocked):
    service, clock = clocked
    heard = Heard()
    service.commit_listeners.append(heard)
    anne = Actor(1, "Anne", "en")
    session = _lobby(anne.seat())
    session.seats.append(lobby.bot_seat(session, Race(), "easy"))
    await service.open(session)
    await service.update(CHANNEL, actions.mutation_for(anne, "start"))
    await service.update(CHANNEL, actions.mutation_for(anne, "move", "add"))
    live = service.in_memory(CHANNEL)
    assert live is not None and live.clock.bot_due is not None
    clock.now = live.clock.bot_due
    await service.run_timer(CHANNEL)  # the computer player adds one
    assert heard.changes[-1][1] == 4
    await service.update(CHANNEL, actions.end(anne))  # the host ends it
    assert [version for _, version, _ in heard.changes] == [1, 2, 3, 4, 5]
    assert heard.changes[-1][2] is Status.OVER


async def test_listeners_hear_a_change_before_it_is_shown_and_a_refusal_not_at_all(service):
    heard = Heard()
    service.commit_listeners.append(heard)
    await service.open(_lobby(Seat(1, "A")))
    seen_when_shown: list[int] = []

    async def show(change: Change) -> None:
        seen_when_shown.append(len(heard.changes))

    await service.update(CHANNEL, lambda s, c: lobby.join(s, c, Seat(2, "B")), publish=show)
    assert seen_when_shown == [2]
    with pytest.raises(NotPlaying):
        await service.update(CHANNEL, lambda s, c: play.make_move(s, c, 1, "add"))
    assert len(heard.changes) == 2


async def test_a_failing_listener_is_logged_once_and_the_change_stands(service, caplog):
    told: list[int] = []

    def broken(change: Change) -> None:
        raise RuntimeError("listener bug")

    service.commit_listeners.extend([broken, lambda change: told.append(change.session.version)])
    with caplog.at_level(logging.ERROR, logger="bot.sessions.service"):
        await service.open(_lobby(Seat(1, "A")))
        change = await service.update(CHANNEL, lambda s, c: lobby.join(s, c, Seat(2, "B")))
    assert change.session.version == 2
    assert told == [1, 2]  # the next listener is still told
    stored = await service.store.get(change.session.id or 0)
    assert stored is not None and stored.version == 2
    failures = [record for record in caplog.records if "commit listener" in record.getMessage()]
    assert len(failures) == 1
