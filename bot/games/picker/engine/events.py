"""What an action caused, so a UI can narrate a round and history can store it as is."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from bot.games.picker.engine.colours import Colour
from bot.games.picker.engine.scoring import ColourSet


@dataclass(frozen=True, slots=True)
class Rolled:
    kind: ClassVar[str] = "rolled"
    round: int  # from 1
    dice: tuple[int, ...]  # in colour order


@dataclass(frozen=True, slots=True)
class AllEqual:
    """Every die showed `value`: the dice are rolled again before anyone keeps one."""

    kind: ClassVar[str] = "all_equal"
    round: int
    value: int


@dataclass(frozen=True, slots=True)
class Picked:
    kind: ClassVar[str] = "picked"
    player: str
    colour: Colour
    value: int


@dataclass(frozen=True, slots=True)
class BecamePicker:
    """The first player this round to keep the round's lowest number: first next round."""

    kind: ClassVar[str] = "picker"
    player: str
    value: int


@dataclass(frozen=True, slots=True)
class RoundOver:
    kind: ClassVar[str] = "round_over"
    round: int
    next_first: str | None  # who keeps first next round; None after the last round


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A person left; a computer player of level Normal plays their seat from now on."""

    kind: ClassVar[str] = "left"
    player: str


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int  # equal scores share a rank
    player: str
    points: int  # the numbers kept
    bonus: int  # the colour bonus, the sum of `sets`
    score: int  # points + bonus
    sets: tuple[ColourSet, ...]
    left: bool = False  # the person left; a computer finished the seat


@dataclass(frozen=True, slots=True)
class GameOver:
    kind: ClassVar[str] = "game_over"
    standings: tuple[Standing, ...]
    abandoned: bool = False

    @property
    def winners(self) -> tuple[str, ...]:
        if self.abandoned:
            return ()
        return tuple(s.player for s in self.standings if s.rank == 1)


Event = Rolled | AllEqual | Picked | BecamePicker | RoundOver | PlayerLeft | GameOver

_EVENT_TYPES: dict[str, type] = {
    cls.kind: cls
    for cls in (Rolled, AllEqual, Picked, BecamePicker, RoundOver, PlayerLeft, GameOver)
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-compatible form with a "type" key, for storage and history."""
    data = asdict(event)
    if "dice" in data:
        data["dice"] = list(data["dice"])
    if "colour" in data:
        data["colour"] = str(data["colour"])
    if "standings" in data:
        data["standings"] = [
            {
                **standing,
                "sets": [{**s, "colour": str(s["colour"])} for s in standing["sets"]],
            }
            for standing in data["standings"]
        ]
    data["type"] = event.kind
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    """Inverse of event_to_dict."""
    fields = {key: value for key, value in data.items() if key != "type"}
    cls = _EVENT_TYPES[data["type"]]
    if "dice" in fields:
        fields["dice"] = tuple(fields["dice"])
    if "colour" in fields:
        fields["colour"] = Colour(fields["colour"])
    if "standings" in fields:
        fields["standings"] = tuple(
            Standing(
                **{
                    **s,
                    "sets": tuple(
                        ColourSet(Colour(c["colour"]), c["count"], c["bonus"]) for c in s["sets"]
                    ),
                }
            )
            for s in fields["standings"]
        )
    event: Event = cls(**fields)
    return event
