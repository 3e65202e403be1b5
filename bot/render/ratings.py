"""The end screen's rating block, for any game: each person's skill rating before and
after the game (`Session.rating_changes`, set in the final commit), "1,512 → 1,538 ▲26"."""

from __future__ import annotations

from bot.i18n import number, t
from bot.render.layout import Text
from bot.render.lobby import section
from bot.render.names import safe_name
from bot.sessions.model import RatingChange, Session


def rating_block(session: Session) -> Text | None:
    """The rating changes of an ended game, or None when it changed none (abandoned,
    practice, or ended before ratings were kept)."""
    if not session.rating_changes:
        return None
    names = {seat.user_id: seat.name for seat in session.seats}
    lines = [
        rating_line(safe_name(names.get(change.user_id, str(change.user_id))), change)
        for change in session.rating_changes
    ]
    return section(t("final.ratings"), lines)


def rating_line(name: str, change: RatingChange) -> str:
    difference = change.after - change.before
    if difference > 0:
        key = "final.rating.up"
    elif difference < 0:
        key = "final.rating.down"
    else:
        key = "final.rating.same"
    return t(
        key,
        name=name,
        before=number(change.before),
        after=number(change.after),
        change=number(abs(difference)),
    )
