"""What a game tells history: its result from its events, and the words of its figures.

History stores and totals any game's results alike; a game's `HistoryFigures` says what
its score is called, which of its counters (figures) the statistics show, what a
player's favourite is, and how a line of its story reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from bot.history.record import EndedGame, GameResult

NameOf = Callable[[int, str], str]


class Aggregate(StrEnum):
    """How a figure adds up over a player's finished games."""

    TOTAL = "total"  # the sum (steals made)
    BEST = "best"  # the highest in one game


@dataclass(frozen=True, slots=True)
class Figure:
    """One counter of `PlayerResult.details` that the player's card shows.

    `label` is the i18n key of the card's field name.
    """

    key: str
    label: str
    aggregate: Aggregate = Aggregate.TOTAL


@dataclass(frozen=True, slots=True)
class ScoreWords:
    """i18n keys for the score, so "worms" and "points" read as each game says them.

    `name` ranks ("Average worms"), `best` ("Best worms"), `per_game` a leaderboard
    value (params average, games). `ranking` is the leaderboard choice value for the
    average score ("average_worms"). A score in a history line is the game's own
    `HistoryFigures.score_text`: it may need more than the number.
    """

    ranking: str
    name: str
    best: str
    per_game: str


@dataclass(frozen=True, slots=True)
class Favourite:
    """The player's most taken item (`PlayerResult.taken`): i18n keys of the card field,
    its value (params item, times) and the text when there is none yet."""

    label: str
    value: str
    none: str


@dataclass(frozen=True, slots=True)
class Variant:
    """A rule variant whose games history marks and can rank apart (Pickomino's
    Extrawurm): games whose rule option `option` is on. i18n keys: `name` ("Extrawurm"),
    `mark` (the sign in a history line), `only`/`without` (the leaderboard's filter: its
    choice names and title), `option_name`/`describe` (the leaderboard option's name and
    description). `scores_apart`: its scores run higher, so the average-score board
    leaves its games out unless asked."""

    key: str
    option: str
    name: str
    mark: str
    only: str
    without: str
    option_name: str
    describe: str
    scores_apart: bool = True

    def of(self, options: Mapping[str, Any]) -> str | None:
        """The variant of a game with these rule options, or None (the base rules)."""
        return self.key if options.get(self.option) else None


@dataclass(frozen=True, slots=True)
class StorySeat:
    """A player as the lines of a game's story name them."""

    seat: int
    user_id: int
    name: str
    is_bot: bool
    score: int
    end_state: Mapping[str, Any]


class HistoryFigures(Protocol):
    """All history needs from one game (its kind's rows are kept apart from others')."""

    kind: str  # the game kind of its results
    command: str  # the game's slash command ("/pickomino"), for hints in the pages
    colour: int  # the pages' embed colour, 0xRRGGBB
    score: ScoreWords
    figures: tuple[Figure, ...]  # the card shows these, in this order
    favourite: Favourite | None
    variant: Variant | None  # a rule variant kept apart, if the game has one

    def build_result(self, ended: EndedGame, events: list[dict[str, Any]]) -> GameResult:
        """The game's result, derived from every event of the game in order."""
        ...

    def story_lines(
        self, rows: Sequence[list[Any]], seats: Mapping[int, StorySeat], name_of: NameOf
    ) -> list[str]:
        """The lines of `/<game> score game` from the stored story rows (StoryLine.to_row)."""
        ...

    def story_legend(self) -> str | None:
        """What the story's signs mean (the page's footer), if it uses any."""
        ...

    def score_text(self, seat: StorySeat) -> str:
        """A player's score in a history line ("9🪱"), in the game's words: a score made
        of parts (worms and Bratwurms) says so."""
        ...

    def standing(self, seat: StorySeat) -> str:
        """A player's score and end position in the final standings ("7🪱 `25` `33`")."""
        ...
