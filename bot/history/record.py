"""A finished or abandoned game as history stores it, for any game.

Pure: no discord, no I/O. Each game fills a `GameResult` from its own events (its
`HistoryFigures.build_result`); storage keeps it keyed by the game's kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sat in a seat: the Discord user (or computer player) and their name then."""

    user_id: int
    name: str
    is_bot: bool


@dataclass(frozen=True, slots=True)
class EndedGame:
    """Where, when and by whom a game was played: a result's part that its events do not
    tell. The session layer gives it to the game's `HistoryFigures.build_result`."""

    game_id: int
    guild_id: int
    channel_id: int
    started_at: int  # unix seconds
    ended_at: int
    options: dict[str, Any]  # the game's rule options
    players: list[SeatInfo]  # in seat order
    abandoned: bool  # ended by a player, by leaving or by the timer
    practice: bool = False  # a practice game (/<game> learn): kept apart, ranked nowhere

    def result(
        self,
        game: str,
        players: list[PlayerResult],
        *,
        turns: int,
        story: list[StoryLine],
        abandoned: bool | None = None,
        variant: str | None = None,
    ) -> GameResult:
        """The result of this game of kind `game`; `abandoned` if the events say more;
        `variant` the rule variant it was played with (HistoryFigures.variant)."""
        return GameResult(
            game=game,
            game_id=self.game_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            started_at=self.started_at,
            ended_at=self.ended_at,
            abandoned=self.abandoned if abandoned is None else abandoned,
            options=dict(self.options),
            players=players,
            turns=turns,
            story=story,
            variant=variant,
            practice=self.practice,
        )


class StoryLine(Protocol):
    """One line of a game's story, as the game records it; stored as a JSON list."""

    def to_row(self) -> list[Any]: ...


@dataclass(slots=True)
class PlayerResult:
    """One seat's result.

    `details` are the game's own counters for this player (the figures its statistics
    total, e.g. Pickomino's "steals"); `end_state` is what the game shows of the player's
    final position (JSON-ready, e.g. Pickomino's stack of tiles); `taken` counts what the
    player took, by item, for their favourite (e.g. Pickomino's tiles by number).
    """

    seat: int
    user_id: int
    name: str
    is_bot: bool
    left: bool = False
    score: int = 0
    rank: int | None = None  # None for a player who left or a game with no standings
    won: bool = False
    details: dict[str, int] = field(default_factory=dict)
    end_state: dict[str, Any] = field(default_factory=dict)
    taken: dict[int, int] = field(default_factory=dict)
    # A computer player's level (the recorder sets it from the seat): its rating's key.
    bot_level: str | None = None


@dataclass(slots=True)
class GameResult:
    """Everything history keeps about one game of kind `game`."""

    game: str  # the game's kind, e.g. "pickomino"
    game_id: int
    guild_id: int
    channel_id: int
    started_at: int  # unix seconds
    ended_at: int
    abandoned: bool
    options: dict[str, Any]
    players: list[PlayerResult]  # in seat order
    turns: int = 0
    story: list[StoryLine] = field(default_factory=list)
    variant: str | None = None  # the rule variant played (HistoryFigures.variant), if any
    practice: bool = False  # a practice game: stored as such, counted in no ranking

    @property
    def stored_kind(self) -> str:
        """The kind its rows are stored under: a practice game's is `<game>:practice`,
        which no page, leaderboard or player card asks for."""
        return f"{self.game}:practice" if self.practice else self.game

    @property
    def has_bots(self) -> bool:
        return any(player.is_bot for player in self.players)

    @property
    def winners(self) -> list[PlayerResult]:
        return [player for player in self.players if player.won]
