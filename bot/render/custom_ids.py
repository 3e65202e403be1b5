"""Component custom_ids that carry a click's target: the session, its state version, the
click and its argument.

`pko:<click>:<session id>:<version>[:<arg>]`, e.g. `pko:move:42:17:keep:w`. The prefix
dates from the first release and is kept so that buttons already posted keep working;
it names no game: the session id leads to the session, and its kind to the game. Any
process can serve the click from these ids alone, so buttons outlive restarts. A move
menu's id has no arg (`pko:menu:42:17`): the move is the option the player picks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

PREFIX = "pko"
MAX_CUSTOM_ID = 100  # Discord's limit
MAX_ID = 2**63 - 1  # the largest id the database can store (SQLite and PostgreSQL bigint)


class ClickAction(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    MOVE = "move"  # a turn's move: the arg is the game's move string
    END = "end"  # confirm ending the game
    AGAIN = "again"  # play again with the same players
    ADD_BOT = "addbot"  # the lobby's Add bot: offers the host the levels
    BOT = "bot"  # seat a computer player: the arg is its level
    DROP_BOT = "dropbot"  # take away the computer player added last
    HINT = "hint"  # the player to move asks for a hint (changes nothing)
    MENU = "menu"  # a move menu (a select): the move is the option picked
    REAL = "real"  # after a practice game: a real game's lobby, with the learner in it
    CONTINUE = "continue"  # bring a message that fell behind up to date (changes nothing)
    REVIEW = "review"  # an ended game's review, for whoever asks (changes nothing)
    TABLE = "table"  # open the table, the game as a Discord Activity (changes nothing)


# Clicks that change the live session, answered by editing the message clicked
# (bot.ui.clicks.LIVE_CHANGES); the other actions have answers of their own.
LIVE_CHANGE_ACTIONS = frozenset(
    {
        ClickAction.JOIN,
        ClickAction.LEAVE,
        ClickAction.START,
        ClickAction.DROP_BOT,
        ClickAction.MOVE,
        ClickAction.MENU,
    }
)


# Actions of ids that earlier releases posted, read as today's action.
_FORMER_ACTIONS = {"claims": ClickAction.MENU}  # the move menu, when only claims had one


# What discord.py routes to our one component class: every id with our prefix, however
# malformed, so that our callback can refuse it politely. An id no template matched
# would be dropped by discord.py unanswered ("This interaction failed").
TEMPLATE = rf"{PREFIX}:(?P<body>.{{0,{MAX_CUSTOM_ID}}})"
# A click's argument (a move string, a level): a steal from a computer player is ".-1".
ARG = r"[0-9a-z:.-]{1,80}"
# What a well-formed id is; numbers of up to 19 digits (then range-checked).
_PATTERN = re.compile(
    rf"^{PREFIX}:(?P<action>[a-z]{{1,16}}):(?P<session>[0-9]{{1,19}}):(?P<version>[0-9]{{1,19}})"
    rf"(?::(?P<arg>{ARG}))?$"
)


class MalformedId(ValueError):
    """A custom_id that matches the template but names no click we know."""


@dataclass(frozen=True, slots=True)
class ComponentRef:
    """What a button (or a menu, with the picked move as its arg) was clicked for."""

    action: ClickAction
    session_id: int
    version: int
    arg: str = ""

    @property
    def text(self) -> str:
        """The custom_id, whatever its length (layout checks report a long one)."""
        text = f"{PREFIX}:{self.action}:{self.session_id}:{self.version}"
        return f"{text}:{self.arg}" if self.arg else text

    def encode(self) -> str:
        """The custom_id; ValueError if it is longer than Discord allows."""
        text = self.text
        if len(text) > MAX_CUSTOM_ID:
            raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID}: {text!r}")
        return text

    @classmethod
    def from_custom_id(cls, custom_id: str) -> ComponentRef:
        """The ref a custom_id names; MalformedId for anything else (an unknown click, a
        number out of range, a damaged id)."""
        match = _PATTERN.match(custom_id)
        if match is None:
            raise MalformedId(custom_id)
        try:
            action = _FORMER_ACTIONS.get(match["action"]) or ClickAction(match["action"])
        except ValueError:
            raise MalformedId(match["action"]) from None
        session_id, version = int(match["session"]), int(match["version"])
        if not (0 < session_id <= MAX_ID and 0 <= version <= MAX_ID):
            raise MalformedId(match[0])
        return cls(action, session_id, version, match["arg"] or "")

    @classmethod
    def parse(cls, custom_id: str) -> ComponentRef | None:
        try:
            return cls.from_custom_id(custom_id)
        except MalformedId:
            return None
