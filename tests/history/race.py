"""A tiny second game for history tests: "race", where each player's score is the laps
they ran and the most laps wins (equal laps share the place). Score only: no figures,
no favourite; its story is who finished, in order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.history.figures import Favourite, Figure, NameOf, ScoreWords, StorySeat
from bot.history.record import EndedGame, GameResult, PlayerResult, SeatInfo, StoryLine


@dataclass(frozen=True, slots=True)
class Finish:
    seat: int
    laps: int

    def to_row(self) -> list[Any]:
        return [self.seat, self.laps]


class RaceHistory:
    kind: str = "race"
    command: str = "/race"
    colour: int = 0x2E8B57
    # Reuses catalog words: a test game has no catalog of its own.
    score: ScoreWords = ScoreWords(
        ranking="average_laps",
        name="score.ranking.games",
        best="score.player.games",
        per_game="score.leaderboard.value.games",
    )
    figures: tuple[Figure, ...] = ()
    favourite: Favourite | None = None

    def build_result(self, ended: EndedGame, events: list[dict[str, Any]]) -> GameResult:
        laps = {event["player"]: event["laps"] for event in events}
        players, abandoned = ended.players, ended.abandoned
        ranked = sorted({laps[str(p.user_id)] for p in players}, reverse=True)
        results = [
            PlayerResult(
                seat=seat,
                user_id=info.user_id,
                name=info.name,
                is_bot=info.is_bot,
                score=laps[str(info.user_id)],
                rank=ranked.index(laps[str(info.user_id)]) + 1,
                won=not abandoned and laps[str(info.user_id)] == ranked[0],
            )
            for seat, info in enumerate(players)
        ]
        story: list[StoryLine] = [Finish(p.seat, p.score) for p in results]
        return ended.result(self.kind, results, turns=len(events), story=story)

    def story_lines(
        self, rows: Sequence[list[Any]], seats: Mapping[int, StorySeat], name_of: NameOf
    ) -> list[str]:
        return [f"{name_of(seats[seat].user_id, seats[seat].name)}: {laps}" for seat, laps in rows]

    def score_text(self, seat: StorySeat) -> str:
        return str(seat.score)

    def standing(self, seat: StorySeat) -> str:
        return str(seat.score)


RACE = RaceHistory()


def race(game_id: int, guild_id: int, ended_at: int, laps: dict[SeatInfo, int]) -> GameResult:
    """A finished race in which each seat ran `laps[seat]` laps."""
    ended = EndedGame(game_id, guild_id, 7, ended_at - 600, ended_at, {}, list(laps), False)
    events = [{"player": str(seat.user_id), "laps": count} for seat, count in laps.items()]
    return RACE.build_result(ended, events)
