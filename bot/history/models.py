"""What the score pages read: rankings, periods, and the rows of each answer, for any game.

Pure data, filled by a `ResultStore` (bot.storage.protocols) and turned into text by
`bot.history.text`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

DAY = 86_400
HISTORY_PAGE_SIZE = 10
LEADERBOARD_SIZE = 10
WIN_RATE_MIN_GAMES = 5


class Ranking(StrEnum):
    WINS = "wins"
    WIN_RATE = "win_rate"  # only players with WIN_RATE_MIN_GAMES games in the period
    AVERAGE_SCORE = "average_score"  # a game words it its own way ("average_worms")
    GAMES = "games"


class Variants(StrEnum):
    """Which games of a game's rule variant (Pickomino's Extrawurm) a leaderboard counts."""

    ALL = "all"
    ONLY = "only"
    WITHOUT = "without"


class Period(StrEnum):
    ALL_TIME = "all"
    DAYS_30 = "30d"
    DAYS_7 = "7d"

    @property
    def days(self) -> int | None:
        """How many UTC days back, counting today; None for all time."""
        return {Period.ALL_TIME: None, Period.DAYS_30: 30, Period.DAYS_7: 7}[self]

    def first_day(self, now: int) -> int | None:
        """The first UTC day number (unix seconds // DAY) inside the period."""
        days = self.days
        return None if days is None else now // DAY - days + 1


class Scope(StrEnum):
    """Whose games a score page covers, for its words: a server's, a chat's without a
    server (a DM, a group DM: the community is the channel), or a person's own in every
    community (their card and history outside a server)."""

    SERVER = "server"
    CHAT = "chat"
    EVERYWHERE = "everywhere"


@dataclass(frozen=True, slots=True)
class Cursor:
    """A position in a newest-first list of games, for keyset paging."""

    ended_at: int
    game_id: int


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One player of a game, as a history line or a final standing shows them."""

    seat: int
    user_id: int
    name: str
    is_bot: bool
    score: int
    rank: int | None
    won: bool
    left: bool
    end_state: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameSummary:
    game: str
    game_id: int
    channel_id: int
    started_at: int
    ended_at: int
    abandoned: bool
    has_bots: bool
    seats: tuple[SeatLine, ...]  # in seat order
    variant: str | None = None  # the rule variant it was played with (None: base rules)

    @property
    def cursor(self) -> Cursor:
        return Cursor(self.ended_at, self.game_id)

    def standings(self) -> list[SeatLine]:
        """Ranked players first by rank, then the unranked (left) by seat."""
        return sorted(self.seats, key=lambda s: (s.rank is None, s.rank or 0, -s.score, s.seat))


@dataclass(frozen=True, slots=True)
class HistoryPage:
    games: tuple[GameSummary, ...]
    total: int  # games in the whole list, for "page x of y"
    has_newer: bool
    has_older: bool


class PerGame:
    """Rates per finished game, for a record that counts games, wins and score."""

    __slots__ = ()
    games: int
    wins: int
    score: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average_score(self) -> float:
        return self.score / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class LeaderboardEntry(PerGame):
    rank: int  # equal values share a rank: 1, 1, 3 (standard competition ranking)
    user_id: int
    name: str
    games: int
    wins: int
    score: int


@dataclass(frozen=True, slots=True)
class Leaderboard:
    ranking: Ranking
    period: Period
    top: tuple[LeaderboardEntry, ...]
    asker: LeaderboardEntry | None  # the asker's own row, when ranked at all
    ranked_players: int
    asker_games: int  # the asker's finished games in the period, ranked or not
    players: int = 0  # people with enough finished games to rank, ranked or not
    variants: Variants = Variants.ALL

    @property
    def asker_in_top(self) -> bool:
        return self.asker is not None and any(e.user_id == self.asker.user_id for e in self.top)


@dataclass(frozen=True, slots=True)
class FigureTotal:
    """One figure over a player's finished games: the sum, and the most in one game."""

    total: int
    best: int


@dataclass(frozen=True, slots=True)
class PlayerStats(PerGame):
    """One person's record in one game, in one community (a server, or a chat without
    one) or in every community; counters cover finished games only."""

    user_id: int
    name: str
    games: int
    wins: int
    score: int
    best_score: int
    current_streak: int
    longest_streak: int
    figures: dict[str, FigureTotal]  # by figure key; a figure never counted is absent
    favourite: int | None  # the item taken most (the highest among equals)
    favourite_taken: int
    stored_games: int  # abandoned games and games left included
    left_games: int = 0  # finished games the person left before the end
    variant_games: int | None = None  # finished games with the game's variant, if asked

    def figure(self, key: str) -> FigureTotal:
        return self.figures.get(key, FigureTotal(0, 0))


@dataclass(frozen=True, slots=True)
class GameStory:
    summary: GameSummary
    lines: tuple[list[Any], ...]  # the game's story rows, as StoryLine.to_row made them
