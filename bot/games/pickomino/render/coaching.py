"""A practice game's coaching line and end summary in words (the lines themselves are
chosen by bot.games.pickomino.learn.coaching)."""

from __future__ import annotations

from typing import Any

from bot.games.pickomino.engine import Game
from bot.games.pickomino.learn.coaching import Coaching, coaching, summary
from bot.games.pickomino.render.text import dice_text, safe_name
from bot.i18n import t
from bot.render.names import Namer
from bot.sessions.model import Session


def learner_of(session: Session) -> str:
    """The learner: the one person at a practice game's table."""
    person = next((seat for seat in session.seats if not seat.is_bot), session.seats[0])
    return person.player_id


def coaching_line(session: Session, game: Game, name_of: Namer) -> str | None:
    """The coaching line of a practice game as it stands (None in any other game)."""
    if not session.practice:
        return None
    line = coaching(game, learner_of(session), session.log)
    return None if line is None else worded(line, name_of)


def summary_line(
    session: Session, game: Game, events: list[dict[str, Any]], name_of: Namer
) -> str | None:
    """How a practice game ended for the learner, and what its stored `events` showed."""
    if not session.practice:
        return None
    return worded(summary(game, learner_of(session), events), name_of)


def worded(line: Coaching, name_of: Namer) -> str:
    params = dict(line.params)
    if "player" in params:
        params["name"] = safe_name(name_of(params.pop("player")))
    if "faces" in params:
        params["faces"] = dice_text(params["faces"])
    return " ".join([t(line.key, **params), *(worded(more, name_of) for more in line.more)])
