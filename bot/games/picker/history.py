"""Picker's part of history: its result from its events, its figures, its story.

Pure: no discord, no I/O. `PICKER_HISTORY` is the game's `HistoryFigures`
(bot.history.figures): the score is points (numbers kept plus the colour bonus), the
figures are the colour bonus, the best bonus of a game and the rounds a player became
the Picker. The story is one line per round: who kept which die, and who became the
Picker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.picker.engine import COLOURS, Colour
from bot.games.picker.engine.colours import COLOUR_INDEX
from bot.games.picker.words import COLOUR_MARK
from bot.history.figures import (
    Aggregate,
    Favourite,
    Figure,
    NameOf,
    ScoreWords,
    StorySeat,
    Variant,
)
from bot.history.record import EndedGame, GameResult, PlayerResult, SeatInfo
from bot.history.text import seat_name
from bot.i18n import t

KIND = "picker"

# Keys of PlayerResult.details; stored per figure, so renaming one needs a migration.
BONUS = "bonus"  # the colour bonus of the game
BEST_BONUS = "best_bonus"  # the same figure, totalled as the best of one game
PICKER = "picker"  # rounds in which the player became the Picker
LEFT_MARK = -1  # a story row's picker seat when nobody became the Picker (cut short)


@dataclass(slots=True)
class Round:
    """One round of the story: the dice kept in order, as [seat, colour index, value],
    and the seat that became the Picker."""

    number: int
    picks: list[list[int]] = field(default_factory=list)
    picker: int = LEFT_MARK

    def to_row(self) -> list[Any]:
        return [self.number, self.picks, self.picker]

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Round:
        number, picks, picker = row
        return cls(int(number), [list(pick) for pick in picks], int(picker))


class PickerHistory:
    """Picker's HistoryFigures."""

    kind: str = KIND
    command: str = "/picker"
    colour: int = 0x4084D6
    score: ScoreWords = ScoreWords(
        ranking="average_points",
        name="picker.score.average_points",
        best="picker.score.best_points",
        per_game="picker.score.per_game",
    )
    figures: tuple[Figure, ...] = (
        Figure(BONUS, "picker.score.bonus"),
        Figure(BEST_BONUS, "picker.score.best_bonus", Aggregate.BEST),
        Figure(PICKER, "picker.score.times_picker"),
    )
    favourite: Favourite | None = None
    variant: Variant | None = None

    def build_result(self, ended: EndedGame, events: list[dict[str, Any]]) -> GameResult:
        """Every counter, the story and the final standings from a game's events (the
        final `game_over` event's standings are authoritative)."""
        seat_of = {str(info.user_id): seat for seat, info in enumerate(ended.players)}
        results = [_player_result(seat, info) for seat, info in enumerate(ended.players)]
        story: list[Round] = [Round(1)]
        game_over: dict[str, Any] | None = None
        for event in events:
            kind = event["type"]
            if kind == "picked":
                value = [seat_of[event["player"]], COLOUR_INDEX[event["colour"]], event["value"]]
                story[-1].picks.append(value)
            elif kind == "picker":
                story[-1].picker = seat_of[event["player"]]
                results[story[-1].picker].details[PICKER] += 1
            elif kind == "round_over":
                story.append(Round(event["round"] + 1))
            elif kind == "left":
                results[seat_of[event["player"]]].left = True
            elif kind == "game_over":
                game_over = event
        rounds = [round_ for round_ in story if round_.picks]
        abandoned = ended.abandoned or bool(game_over and game_over.get("abandoned"))
        if game_over is not None:
            _apply_standings(results, seat_of, game_over["standings"], abandoned)
        return ended.result(
            KIND, results, turns=len(rounds), story=list(rounds), abandoned=abandoned
        )

    def story_lines(
        self, rows: Sequence[list[Any]], seats: Mapping[int, StorySeat], name_of: NameOf
    ) -> list[str]:
        """One line per round: each die kept, in order, and who became the Picker."""
        lines = []
        for round_ in map(Round.from_row, rows):
            picks = ", ".join(
                t(
                    "picker.score.round.pick",
                    name=seat_name(seats[seat], name_of),
                    die=f"{COLOUR_MARK[COLOURS[colour]]}{value}",
                )
                for seat, colour, value in round_.picks
            )
            picker = (
                t("picker.score.round.picker", name=seat_name(seats[round_.picker], name_of))
                if round_.picker != LEFT_MARK
                else ""
            )
            lines.append(t("picker.score.round", number=round_.number, picks=picks) + picker)
        return lines

    def story_legend(self) -> str | None:
        return None

    def score_text(self, seat: StorySeat) -> str:
        return t("picker.score.points", score=seat.score)

    def standing(self, seat: StorySeat) -> str:
        state = seat.end_state
        colours = "".join(COLOUR_MARK[Colour(colour)] for colour in state.get("colours", ()))
        return t(
            "picker.score.standing",
            score=seat.score,
            points=state.get("points", seat.score),
            bonus=state.get(BONUS, 0),
            colours=colours,
        )


PICKER_HISTORY = PickerHistory()


def _player_result(seat: int, info: SeatInfo) -> PlayerResult:
    return PlayerResult(
        seat=seat,
        user_id=info.user_id,
        name=info.name,
        is_bot=info.is_bot,
        details={BONUS: 0, BEST_BONUS: 0, PICKER: 0},
    )


def _apply_standings(
    results: list[PlayerResult],
    seat_of: dict[str, int],
    standings: list[dict[str, Any]],
    abandoned: bool,
) -> None:
    for standing in standings:
        player = results[seat_of[standing["player"]]]
        player.score = standing["score"]
        player.details[BONUS] = player.details[BEST_BONUS] = standing["bonus"]
        player.end_state = {
            "points": standing["points"],
            BONUS: standing["bonus"],
            "colours": [s["colour"] for s in standing["sets"] for _ in range(s["count"])],
        }
        if not player.left:
            player.rank = standing["rank"]
            player.won = not abandoned and standing["rank"] == 1
