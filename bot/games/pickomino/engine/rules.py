"""The rule options of RULES.md as one frozen value; the defaults are the 2020 rulebook."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from bot.games.pickomino.engine.tiles import BASE_LAYOUT, EXTRAWURM_LAYOUT, Layout


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
    extrawurm: bool = False  # the Extrawurm expansion (RULES.md), with any other option

    @property
    def layout(self) -> Layout:
        """The tiles, seats and dice these rules play with."""
        return EXTRAWURM_LAYOUT if self.extrawurm else BASE_LAYOUT

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form, as in scenario files."""
        # Not dataclasses.asdict: it deep-copies field by field, and every commit asks.
        return {
            name: str(value) if isinstance(value, StrEnum) else value
            for name in _FIELDS
            for value in (getattr(self, name),)
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Rules:
        """Read options from a scenario or stored state; missing keys take the defaults."""
        data = data or {}
        unknown = set(data) - {"flip_on_empty_failure", "lower_tile", "first_player", "extrawurm"}
        if unknown:
            raise ValueError(f"unknown rule option {sorted(unknown)[0]!r}")
        flip = data.get("flip_on_empty_failure", False)
        extrawurm = data.get("extrawurm", False)
        for name, value in (("flip_on_empty_failure", flip), ("extrawurm", extrawurm)):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false")
        try:
            lower = LowerTile(data.get("lower_tile", LowerTile.HIGHEST))
            first = FirstPlayer(data.get("first_player", FirstPlayer.RANDOM))
        except ValueError as error:
            raise ValueError(f"bad rule option: {error}") from None
        return cls(
            flip_on_empty_failure=flip, lower_tile=lower, first_player=first, extrawurm=extrawurm
        )


_FIELDS = tuple(field.name for field in fields(Rules))
