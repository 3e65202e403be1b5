"""Component custom_ids that carry a click's target: the game, its state version, the move.

`pko:<action>:<session id>:<version>[:<arg>]`, e.g. `pko:move:42:17:keep:w`. Any
process can serve the click from these ids alone, so buttons outlive restarts. A select
menu's id has no arg (`pko:claims:42:17`): the move is the option the player picks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

PREFIX = "pko"
MAX_CUSTOM_ID = 100  # Discord's limit


class Action(StrEnum):
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
    CLAIMS = "claims"  # the claim menu (a select): the move is the option picked


TEMPLATE = (
    rf"{PREFIX}:(?P<action>[a-z]+):(?P<session>[0-9]+):(?P<version>[0-9]+)"
    r"(?::(?P<arg>[0-9a-z:.-]+))?"  # a steal from a computer player: ".-1"
)
_PATTERN = re.compile(rf"^{TEMPLATE}$")


@dataclass(frozen=True, slots=True)
class ButtonRef:
    """What a button (or a menu, with the picked move as its arg) was clicked for."""

    action: Action
    session_id: int
    version: int
    arg: str = ""

    def encode(self) -> str:
        text = f"{PREFIX}:{self.action}:{self.session_id}:{self.version}"
        if self.arg:
            text = f"{text}:{self.arg}"
        if len(text) > MAX_CUSTOM_ID:
            raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID}: {text!r}")
        return text

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ButtonRef:
        return cls(
            Action(match["action"]),
            int(match["session"]),
            int(match["version"]),
            match["arg"] or "",
        )

    @classmethod
    def parse(cls, custom_id: str) -> ButtonRef | None:
        match = _PATTERN.match(custom_id)
        if match is None:
            return None
        try:
            return cls.from_match(match)
        except ValueError:
            return None
