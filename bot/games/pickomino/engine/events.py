"""What an action caused, so a UI can narrate a turn and history can store it as is."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar

from bot.games.pickomino.engine.dice import Face
from bot.games.pickomino.engine.frozen import quick_init
from bot.games.pickomino.engine.specialists import Specialist


class FailReason(StrEnum):
    NO_NEW_FACE = "no_new_face"  # the roll showed only faces kept already
    NO_WORM = "no_worm"  # the turn ended by itself without a kept worm
    NO_TILE = "no_tile"  # the turn ended by itself with no tile to take
    TIMEOUT = "timeout"  # the turn timer ran out with no claim possible


class BratwurmReason(StrEnum):
    """Why an Extrawurm player got a Bratwurm token."""

    ONES = "ones"  # two or more 1s kept at once
    RAVEN = "raven"  # took the tile the Raven sat on


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
class WeaselRolled:
    """Extrawurm: the Weasel's holder rolled the dice on the table again."""

    kind: ClassVar[str] = "weasel"
    player: str
    dice: tuple[Face, ...]  # the new roll, which replaces the one before


@dataclass(frozen=True, slots=True)
class NinthDie:
    """Extrawurm: the Golden Die's holder starts the turn with nine dice."""

    kind: ClassVar[str] = "ninth_die"
    player: str


@dataclass(frozen=True, slots=True)
class SpecialistGained:
    """Extrawurm: a player took the grill tile a specialist sat on, and holds it now."""

    kind: ClassVar[str] = "specialist_gained"
    player: str
    specialist: Specialist
    tile: int


@dataclass(frozen=True, slots=True)
class SpecialistReturned:
    """Extrawurm: a specialist went back onto the lowest free face-up grill tile."""

    kind: ClassVar[str] = "specialist_returned"
    specialist: Specialist
    tile: int
    player: str | None  # its former holder; None when it moved off a grill tile


@dataclass(frozen=True, slots=True)
class SpecialistLeft:
    """Extrawurm: a specialist found no free face-up grill tile and left the game."""

    kind: ClassVar[str] = "specialist_left"
    specialist: Specialist
    player: str | None  # its former holder; None when it moved off a grill tile


@dataclass(frozen=True, slots=True)
class HenStolen:
    """Extrawurm: a total equal to the Hen holder's top tile took the Hen, not the tile."""

    kind: ClassVar[str] = "hen_stolen"
    player: str
    victim: str
    tile: int  # the victim's top tile, which the victim keeps


@dataclass(frozen=True, slots=True)
class BratwurmGained:
    """Extrawurm: a player got a Bratwurm token, from the supply or from another player."""

    kind: ClassVar[str] = "bratwurm"
    player: str
    reason: BratwurmReason
    source: str | None  # the player it was taken from; None for the supply


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    worms: int  # the score: worms on every tile held, plus Bratwurms
    tiles: tuple[int, ...]  # the stack bottom to top, then any extra tile (11, 13)
    bratwurms: int = 0

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


Event = (
    Rolled
    | Kept
    | Took
    | Stole
    | Failed
    | PlayerLeft
    | GameOver
    | WeaselRolled
    | NinthDie
    | SpecialistGained
    | SpecialistReturned
    | SpecialistLeft
    | HenStolen
    | BratwurmGained
)


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-compatible form with a "type" key, for storage and history."""
    if isinstance(event, GameOver):
        data = asdict(event)  # its standings are dataclasses too
    else:
        # Every other event holds plain values: read them field by field (asdict's deep
        # copy was most of the cost, paid for every event of every click).
        data = {name: getattr(event, name) for name in _field_names(type(event))}
    for key, value in data.items():
        if isinstance(value, Face):
            data[key] = value.symbol
        elif isinstance(value, StrEnum):
            data[key] = str(value)
        elif key == "dice":
            data[key] = [Face(face).symbol for face in value]
        elif key == "standings":
            data[key] = [{**s, "tiles": list(s["tiles"])} for s in value]
        elif isinstance(value, tuple):
            data[key] = list(value)
    data["type"] = event.kind
    return data


_EVENT_TYPES: dict[str, type] = {
    cls.kind: cls
    for cls in (
        Rolled,
        Kept,
        Took,
        Stole,
        Failed,
        PlayerLeft,
        GameOver,
        WeaselRolled,
        NinthDie,
        SpecialistGained,
        SpecialistReturned,
        SpecialistLeft,
        HenStolen,
        BratwurmGained,
    )
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
        reasons = BratwurmReason if cls is BratwurmGained else FailReason
        fields["reason"] = reasons(fields["reason"])
    if "specialist" in fields:
        fields["specialist"] = Specialist(fields["specialist"])
    if "returned" in fields and isinstance(fields["returned"], list):
        fields["returned"] = tuple(fields["returned"])
    if "standings" in fields:
        fields["standings"] = tuple(
            Standing(s["rank"], s["player"], s["worms"], tuple(s["tiles"]), s.get("bratwurms", 0))
            for s in fields["standings"]
        )
    return cls(**fields)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(item.name for item in fields(cls))
    return names
