"""The latest bust or steal of a game, remembered until the player it hit rolls again.

Not a rule: the table is told of a bust or a steal until it matters to the player who
lost by it, their next turn (the live message heads with it), and the session's short
log cannot reach that far back in a game of seven.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.games.pickomino.engine.events import (
    Failed,
    HenStolen,
    Stole,
    event_from_dict,
    event_to_dict,
)

Blow = Failed | Stole | HenStolen


@dataclass(frozen=True, slots=True)
class Setback:
    """A bust (the player failed) or a steal (of a tile, or of the Sitting Hen)."""

    event: Blow

    @property
    def victim(self) -> str:
        """The player who lost by it: the one who failed, or the one robbed."""
        event = self.event
        return event.player if isinstance(event, Failed) else event.victim

    def to_dict(self) -> dict[str, Any]:
        return event_to_dict(self.event)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setback:
        event = event_from_dict(data)
        if not isinstance(event, Blow):
            raise ValueError(f"a setback is a bust or a steal, not {data.get('type')!r}")
        return cls(event)


def latest_setback(events: list[Any], before: Setback | None) -> Setback | None:
    """The setback the events of one action leave: their last bust or steal, if any."""
    for event in reversed(events):
        if isinstance(event, Blow):
            return Setback(event)
    return before
