"""A finished or abandoned game as history stores it, derived from the game's events.

Pure: no discord, no I/O. The session layer calls `build_result` with the event dicts
of the whole game (`events.event_to_dict` form) and hands the result to
`bot.storage.results.save_result`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.games.pickomino.engine import worms


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sat in a seat: the Discord user (or computer player) and their name then."""

    user_id: int
    name: str
    is_bot: bool


class Outcome(StrEnum):
    """How a line of a game's story ended."""

    TOOK = "took"  # a tile from the grill
    STOLE = "stole"  # an opponent's top tile
    FAILED = "failed"
    LEFT = "left"  # the player left the game (not a turn of its own)


@dataclass(frozen=True, slots=True)
class Turn:
    """One line of a game's story, players given by seat.

    `tile` is the tile taken or stolen, or on a failure the tile returned to the grill;
    `other` is the robbed seat for a steal, or the tile turned face down on a failure.
    """

    seat: int
    outcome: Outcome
    tile: int | None = None
    other: int | None = None

    def to_row(self) -> list[Any]:
        """Compact JSON form: [seat, outcome, tile, other]."""
        return [self.seat, str(self.outcome), self.tile, self.other]

    @classmethod
    def from_row(cls, row: list[Any]) -> Turn:
        seat, outcome, tile, other = row
        return cls(seat, Outcome(outcome), tile, other)


@dataclass(slots=True)
class PlayerResult:
    """One seat's result and the counters derived from the game's events."""

    seat: int
    user_id: int
    name: str
    is_bot: bool
    worms: int = 0
    tiles: tuple[int, ...] = ()  # the stack at the end, bottom first
    rank: int | None = None  # None for a player who left or a game with no standings
    won: bool = False
    left: bool = False
    grill_takes: int = 0
    steals: int = 0
    stolen_from: int = 0  # tiles this player lost to steals
    failures: int = 0
    turns: int = 0


@dataclass(slots=True)
class GameResult:
    """Everything history keeps about one game."""

    game_id: int
    guild_id: int
    channel_id: int
    started_at: int  # unix seconds
    ended_at: int
    rules: dict[str, Any]
    abandoned: bool
    players: list[PlayerResult]  # in seat order
    story: list[Turn] = field(default_factory=list)

    @property
    def has_bots(self) -> bool:
        return any(player.is_bot for player in self.players)

    @property
    def turns(self) -> int:
        return sum(player.turns for player in self.players)

    @property
    def winners(self) -> list[PlayerResult]:
        return [player for player in self.players if player.won]


def build_result(
    *,
    game_id: int,
    guild_id: int,
    channel_id: int,
    started_at: int,
    ended_at: int,
    rules: dict[str, Any],
    players: list[SeatInfo],
    events: list[dict[str, Any]],
    abandoned: bool,
) -> GameResult:
    """Derive every counter, the story and the final standings from a game's events.

    Players in events are `str(user_id)`, as in the engine. The final `game_over`
    event's standings are authoritative; a game abandoned before one was played (in
    the lobby, or with no `game_over` event at all) keeps the stacks the events built.
    A player who left has no rank and never wins.
    """
    results = [
        PlayerResult(seat=seat, user_id=info.user_id, name=info.name, is_bot=info.is_bot)
        for seat, info in enumerate(players)
    ]
    by_id = {str(player.user_id): player for player in results}
    stacks: dict[str, list[int]] = {key: [] for key in by_id}
    story: list[Turn] = []
    game_over: dict[str, Any] | None = None

    for event in events:
        kind = event["type"]
        if kind == "game_over":
            game_over = event
            continue
        if kind not in _STORY_EVENTS:
            continue  # rolls and keeps are the making of a turn, not its outcome
        key = event["player"]
        player = by_id[key]
        if kind == "took":
            player.grill_takes += 1
            player.turns += 1
            stacks[key].append(event["tile"])
            story.append(Turn(player.seat, Outcome.TOOK, event["tile"]))
        elif kind == "stole":
            victim = by_id[event["victim"]]
            player.steals += 1
            player.turns += 1
            victim.stolen_from += 1
            stacks[event["victim"]].pop()
            stacks[key].append(event["tile"])
            story.append(Turn(player.seat, Outcome.STOLE, event["tile"], victim.seat))
        elif kind == "failed":
            player.failures += 1
            player.turns += 1
            if event["returned"] is not None:
                stacks[key].pop()
            story.append(Turn(player.seat, Outcome.FAILED, event["returned"], event["turned"]))
        else:  # left
            player.left = True
            stacks[key].clear()
            story.append(Turn(player.seat, Outcome.LEFT))

    for key, player in by_id.items():
        player.tiles = tuple(stacks[key])
        player.worms = _worms(player.tiles)
    if game_over is not None:
        abandoned = abandoned or bool(game_over.get("abandoned"))
        _apply_standings(by_id, game_over["standings"], abandoned)

    return GameResult(
        game_id=game_id,
        guild_id=guild_id,
        channel_id=channel_id,
        started_at=started_at,
        ended_at=ended_at,
        rules=dict(rules),
        abandoned=abandoned,
        players=results,
        story=story,
    )


_STORY_EVENTS = frozenset({"took", "stole", "failed", "left"})


def _apply_standings(
    by_id: dict[str, PlayerResult], standings: list[dict[str, Any]], abandoned: bool
) -> None:
    for standing in standings:
        player = by_id[standing["player"]]
        player.tiles = tuple(standing["tiles"])
        player.worms = standing["worms"]
        player.rank = standing["rank"]
        player.won = not abandoned and not player.left and standing["rank"] == 1


def _worms(tiles: Iterable[int]) -> int:
    return sum(worms(tile) for tile in tiles)
