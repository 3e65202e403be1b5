"""What a change to a session may use besides the session: its game, dice and the time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.sessions.adapter import AnyAdapter


@dataclass(frozen=True, slots=True)
class ChangeTools:
    adapter: AnyAdapter
    rng: Any  # secrets.SystemRandom in production, a seeded random.Random in tests
    now: float
