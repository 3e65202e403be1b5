"""Game-agnostic sessions: one lobby or game per channel, stored, locked and timed."""

from bot.sessions.adapter import GameAdapter, GameEvent, IllegalMove
from bot.sessions.errors import SessionError
from bot.sessions.model import Ending, Seat, Session, Status
from bot.sessions.service import Change, Expect, SessionListener, SessionService
from bot.sessions.tools import ChangeTools

__all__ = [
    "Change",
    "ChangeTools",
    "Ending",
    "Expect",
    "GameAdapter",
    "GameEvent",
    "IllegalMove",
    "Seat",
    "Session",
    "SessionError",
    "SessionListener",
    "SessionService",
    "Status",
]
