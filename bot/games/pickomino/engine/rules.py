"""The rule options of RULES.md as one frozen value; the defaults are the 2020 rulebook."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any


class LowerTile(StrEnum):
    """Which grill tile below the sum may be taken when the exact one is not there."""

    HIGHEST = "highest"  # 2020 rulebook: only the highest face-up tile below the sum
    ANY = "any"  # 003 FAQ house rule: any face-up tile below the sum


class FirstPlayer(StrEnum):
    """Who takes the first turn."""

    RANDOM = "random"
    HOST = "host"  # the host's choice: the host sits first and starts


@dataclass(frozen=True, slots=True)
class Rules:
    """The options a game is played with."""

    flip_on_empty_failure: bool = False
    lower_tile: LowerTile = LowerTile.HIGHEST
    first_player: FirstPlayer = FirstPlayer.RANDOM

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form, as in scenario files."""
        return {
            key: str(value) if isinstance(value, StrEnum) else value
            for key, value in asdict(self).items()
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Rules:
        """Read options from a scenario or stored state; missing keys take the defaults."""
        data = data or {}
        unknown = set(data) - {"flip_on_empty_failure", "lower_tile", "first_player"}
        if unknown:
            raise ValueError(f"unknown rule option {sorted(unknown)[0]!r}")
        flip = data.get("flip_on_empty_failure", False)
        if not isinstance(flip, bool):
            raise ValueError("flip_on_empty_failure must be true or false")
        try:
            lower = LowerTile(data.get("lower_tile", LowerTile.HIGHEST))
            first = FirstPlayer(data.get("first_player", FirstPlayer.RANDOM))
        except ValueError as error:
            raise ValueError(f"bad rule option: {error}") from None
        return cls(flip_on_empty_failure=flip, lower_tile=lower, first_player=first)
