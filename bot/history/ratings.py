"""Skill ratings, for any game: Weng-Lin's Bayesian ratings (openskill's Plackett-Luce
model), one rating a player in each game kind and community.

Pure: no discord, no I/O. `rated_seats` says who a finished game rates and at which
place, `rate` moves their ratings, `Ratings` replays games in order (a rebuild, a
30-day season); `bot.history.rating_sql` keeps them in the database.

Who is rated: the players of a finished game that is not a practice game, at its final
places (equal results share a place: `shared_ranks`' 1, 2, 2, 4); a player who left
counts as last, with everyone else who left. A game with fewer than two players, or
whose players all left, rates nobody. People are rated by their user id, computer
players by their level (`Player(0, "hard")`): every Hard player of a community is one
rated player, whose rating says how strong that level plays there.

Deterministic: the players are rated in seat order, the model has no randomness, and
mu and sigma are doubles kept exactly (REAL / DOUBLE PRECISION), so the same games in
the same order give the same ratings to the last digit, live or rebuilt.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

# openskill's defaults: a newcomer's mu 25 and sigma 25/3; beta (25/6) is one class of
# skill, tau (25/300) the drift added before each game, so a rating keeps moving.
MODEL = PlackettLuce()
START_MU = 25.0
START_SIGMA = 25.0 / 3.0

# The shown rating is the conservative estimate mu - 3 sigma (the skill the player has
# at least, almost surely), on a scale where a newcomer shows 1,000 and 100 points is
# four skill points, about one class (beta): a regular of average skill settles near
# 1,500. `display(mu + 3 sigma)` is the top of the range their skill likely lies in.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 25.0

# The rating leaderboards rank people with this many rated games in the period.
RATING_MIN_GAMES = 5


@dataclass(frozen=True, slots=True, order=True)
class Player:
    """Who holds a rating: a person (`user_id`, `bot_level` ""), or a level of computer
    player (`user_id` 0, `bot_level` its level)."""

    user_id: int
    bot_level: str = ""

    @property
    def is_person(self) -> bool:
        return not self.bot_level


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate the rankings order by: mu - 3 sigma."""
        return self.mu - 3.0 * self.sigma

    @property
    def shown(self) -> int:
        """The rating as people read it (`display`)."""
        return display(self.ordinal)

    @property
    def top(self) -> int:
        """The top of the range the skill likely lies in (mu + 3 sigma, shown)."""
        return display(self.mu + 3.0 * self.sigma)


def display(value: float) -> int:
    """A skill value (mu - 3 sigma, mu + 3 sigma) on the shown scale."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * value)


@dataclass(frozen=True, slots=True)
class Seated:
    """One seat of a stored game as the ratings read it."""

    seat: int
    user_id: int
    is_bot: bool
    bot_level: str | None  # a computer player's level; None if unknown
    left: bool
    rank: int | None  # its final place; None for a player who left


@dataclass(frozen=True, slots=True)
class Change:
    """What one game did to one player's rating."""

    player: Player
    seat: int
    before: Rating
    after: Rating


def rated_seats(seats: Sequence[Seated]) -> list[tuple[Player, int, int]]:
    """(player, place, seat) of everyone a finished game rates, in seat order; empty if
    it rates nobody. Those who left share the last place; a computer player whose level
    is unknown (stored before levels were) is left out, and so is a second seat of the
    same rated player (two Hard players at one table: the first seat's place counts)."""
    stayed = [seat for seat in seats if not seat.left]
    if not stayed or any(seat.rank is None for seat in stayed):
        return []
    last = max(seat.rank or 0 for seat in stayed) + 1
    rated: list[tuple[Player, int, int]] = []
    seen: set[Player] = set()
    for seat in sorted(seats, key=lambda s: s.seat):
        if seat.is_bot:
            if not seat.bot_level:
                continue
            player = Player(0, seat.bot_level)
        else:
            player = Player(seat.user_id)
        if player in seen:
            continue
        seen.add(player)
        rated.append((player, last if seat.left else seat.rank or last, seat.seat))
    return rated if len(rated) >= 2 else []


def rate(
    current: Mapping[Player, Rating], placed: Sequence[tuple[Player, int, int]]
) -> list[Change]:
    """The changes of one game: `placed` from `rated_seats`, `current` the ratings
    before it (a player not in it starts afresh)."""
    if len(placed) < 2:
        return []
    before = [current.get(player, Rating()) for player, _, _ in placed]
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
    rated = MODEL.rate(teams, ranks=[float(place) for _, place, _ in placed])
    return [
        Change(player, seat, old, Rating(float(team[0].mu), float(team[0].sigma), old.games + 1))
        for (player, _, seat), old, team in zip(placed, before, rated, strict=True)
    ]


class Ratings:
    """One community's ratings in one game, replayed game by game (a rebuild, a season)."""

    def __init__(self, start: Mapping[Player, Rating] | None = None) -> None:
        self.by_player: dict[Player, Rating] = dict(start or {})
        self.games = 0

    def play(self, seats: Sequence[Seated]) -> list[Change]:
        changes = rate(self.by_player, rated_seats(seats))
        for change in changes:
            self.by_player[change.player] = change.after
        if changes:
            self.games += 1
        return changes

    def people(self, min_games: int = RATING_MIN_GAMES) -> list[tuple[int, Rating]]:
        """(user id, rating) of the people with `min_games` rated games, best first
        (equal ratings: more games first, then the lower id)."""
        rows = [
            (player.user_id, rating)
            for player, rating in self.by_player.items()
            if player.is_person and rating.games >= min_games
        ]
        return sorted(rows, key=lambda row: (-row[1].ordinal, -row[1].games, row[0]))


def level_in_name(name: str, labels: Iterable[tuple[str, str]]) -> str | None:
    """The level of a computer player stored before levels were, from its name
    ("Pip (Hard)", "Pip (Schwer)"): `labels` are (level, its word in a language)."""
    for level, label in labels:
        if name.endswith(f"({label})"):
            return level
    return None
