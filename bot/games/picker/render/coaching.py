"""A Picker practice game's coaching line and end summary in words (the lines
themselves are chosen by bot.games.picker.learn.coaching)."""

from __future__ import annotations

from typing import Any

from bot.games.picker.engine import Game
from bot.games.picker.learn.coaching import Coaching, coaching, summary
from bot.games.picker.words import COLOUR_MARK
from bot.i18n import t
from bot.render.names import safe_name
from bot.sessions.model import Session


def learner_of(session: Session) -> str:
    """The learner: the one person at a practice game's table."""
    person = next((seat for seat in session.seats if not seat.is_bot), session.seats[0])
    return person.player_id


def coaching_line(session: Session, game: Game) -> str | None:
    """The coaching line of a practice game as it stands (None in any other game)."""
    if not session.practice:
        return None
    line = coaching(game, learner_of(session), session.log)
    return None if line is None else worded(session, line)


def summary_line(session: Session, game: Game, events: list[dict[str, Any]]) -> str | None:
    """How a practice game ended for the learner, and what its stored `events` showed."""
    if not session.practice:
        return None
    return worded(session, summary(game, learner_of(session), events))


def worded(session: Session, line: Coaching) -> str:
    params = dict(line.params)
    if "player" in params:
        params["name"] = safe_name(session.name_of(params.pop("player")))
    if "colour" in params:
        params["colour"] = COLOUR_MARK[params["colour"]]
    if "value" in params:
        params["value"] = f"**{params['value']}**"
    return " ".join([t(line.key, **params), *(worded(session, more) for more in line.more)])
