"""A game's turn clock: when the turn began, the half-time ping, expiries in a row, and
when a computer player steps next. Stored with the session, so it survives restarts."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any


@dataclass(slots=True)
class TurnClock:
    turn_key: str | None = None  # which turn is being timed (the adapter's turn_key)
    turn_started: float | None = None
    pinged: bool = False  # the player to move was reminded at half time
    strikes: dict[str, int] = field(default_factory=dict)  # expiries in a row, per player
    bot_due: float | None = None  # a computer player to move steps at this instant

    def deadline(self, timer_seconds: int | None) -> float | None:
        if self.turn_started is None or timer_seconds is None:
            return None
        return self.turn_started + timer_seconds

    def half_time(self, timer_seconds: int | None) -> float | None:
        if self.turn_started is None or timer_seconds is None:
            return None
        return self.turn_started + timer_seconds / 2

    def next_instant(self, timer_seconds: int | None) -> float | None:
        """When the clock next has something to do: a computer player's step, else the
        half-time ping, else the expiry."""
        if self.bot_due is not None:
            return self.bot_due
        return self.deadline(timer_seconds) if self.pinged else self.half_time(timer_seconds)

    def stop_timing(self) -> None:
        self.turn_key, self.turn_started, self.pinged = None, None, False

    def start_turn(self, key: str, now: float) -> None:
        """Time a new turn from `now`; the same turn keeps its start."""
        if key != self.turn_key:
            self.turn_key, self.turn_started, self.pinged = key, now, False

    def copy(self) -> TurnClock:
        return replace(self, strikes=dict(self.strikes))

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, state: dict[str, Any]) -> TurnClock:
        """From a stored session state (the clock's keys sit at its top level)."""
        return cls(
            turn_key=state.get("turn_key"),
            turn_started=state.get("turn_started"),
            pinged=bool(state.get("pinged", False)),
            strikes={str(k): int(v) for k, v in (state.get("strikes") or {}).items()},
            bot_due=state.get("bot_due"),
        )
