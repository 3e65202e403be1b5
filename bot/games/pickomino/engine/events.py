"""What an action caused, so a UI can narrate a turn and history can store it as is."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from bot.games.pickomino.engine.dice import Face
from bot.games.pickomino.engine.frozen import quick_init


class FailReason(StrEnum):
    NO_NEW_FACE = "no_new_face"  # the roll showed only faces kept already
    NO_WORM = "no_worm"  # the turn ended by itself without a kept worm
    NO_TILE = "no_tile"  # the turn ended by itself with no tile to take
    TIMEOUT = "timeout"  # the turn timer ran out with no claim possible


@quick_init  # built on every action
@dataclass(frozen=True, slots=True)
class Rolled:
    kind: ClassVar[str] = "rolled"
    player: str
    dice: tuple[Face, ...]


@quick_init  # built on every action
@dataclass(frozen=True, slots=True)
class Kept:
    kind: ClassVar[str] = "kept"
    player: str
    face: Face
    count: int
    total: int  # the sum of all kept dice after this keep


@dataclass(frozen=True, slots=True)
class Took:
    kind: ClassVar[str] = "took"
    player: str
    tile: int
    total: int  # the sum the tile was taken with (above the tile for a lower tile)


@dataclass(frozen=True, slots=True)
class Stole:
    kind: ClassVar[str] = "stole"
    player: str
    victim: str
    tile: int


@dataclass(frozen=True, slots=True)
class Failed:
    kind: ClassVar[str] = "failed"
    player: str
    reason: FailReason
    returned: int | None  # the player's top tile, back on the grill
    turned: int | None  # the grill tile turned face down


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    kind: ClassVar[str] = "left"
    player: str
    returned: tuple[int, ...]  # their tiles, back on the grill face up


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    worms: int
    tiles: tuple[int, ...]

    @property
    def highest_tile(self) -> int:
        return max(self.tiles, default=0)


@dataclass(frozen=True, slots=True)
class GameOver:
    kind: ClassVar[str] = "game_over"
    standings: tuple[Standing, ...]
    abandoned: bool = False
    # Why the winner beat the players on equal worms: "highest_tile" or "" (no tie).
    tie_break: str = field(default="")

    @property
    def winners(self) -> tuple[str, ...]:
        if self.abandoned:
            return ()
        return tuple(s.player for s in self.standings if s.rank == 1)


Event = Rolled | Kept | Took | Stole | Failed | PlayerLeft | GameOver


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-compatible form with a "type" key, for storage and history."""
    data = asdict(event)
    for key, value in data.items():
        if isinstance(value, Face):
            data[key] = value.symbol
        elif key == "dice":
            data[key] = [Face(face).symbol for face in value]
        elif key == "standings":
            data[key] = [{**s, "tiles": list(s["tiles"])} for s in value]
        elif isinstance(value, tuple):
            data[key] = list(value)
    data["type"] = event.kind
    return data


_EVENT_TYPES: dict[str, type] = {
    cls.kind: cls for cls in (Rolled, Kept, Took, Stole, Failed, PlayerLeft, GameOver)
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """Inverse of event_to_dict."""
    fields = {key: value for key, value in data.items() if key != "type"}
    cls = _EVENT_TYPES[data["type"]]
    if "face" in fields:
        fields["face"] = Face.parse(fields["face"])
    if "dice" in fields:
        fields["dice"] = tuple(Face.parse(face) for face in fields["dice"])
    if "reason" in fields:
        fields["reason"] = FailReason(fields["reason"])
    if "returned" in fields and isinstance(fields["returned"], list):
        fields["returned"] = tuple(fields["returned"])
    if "standings" in fields:
        fields["standings"] = tuple(
            Standing(s["rank"], s["player"], s["worms"], tuple(s["tiles"]))
            for s in fields["standings"]
        )
    return cls(**fields)
