"""Pickomino's part of history: its result from its events, its figures, its story.

Pure: no discord, no I/O. `PICKOMINO_HISTORY` is the game's `HistoryFigures`
(bot.history.figures): the score is worms (Bratwurms included, with Extrawurm), the
figures are tiles taken from the grill, steals, tiles lost to steals and busts
(failures), and the favourite is a tile. Extrawurm games are a variant history marks and
can rank apart. The story is shown one line per round: each player's turn as a short
token after their seat's mark.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.games.pickomino.holdings import Holding, replay
from bot.games.pickomino.render.text import score_text
from bot.history.figures import Favourite, Figure, NameOf, ScoreWords, StorySeat, Variant
from bot.history.record import EndedGame, GameResult, PlayerResult, SeatInfo
from bot.history.text import seat_name
from bot.i18n import t

KIND = "pickomino"

# Keys of PlayerResult.details; stored per figure, so renaming one needs a migration.
TILES = "tiles"  # tiles taken from the grill
STEALS = "steals"
STOLEN_FROM = "stolen_from"  # tiles this player lost to steals
BUSTS = "busts"  # failed turns
TURNS = "turns"


class Outcome(StrEnum):
    """How a line of a game's story ended."""

    TOOK = "took"  # a tile from the grill
    STOLE = "stole"  # an opponent's top tile
    FAILED = "failed"
    HEN = "hen"  # Extrawurm: took the Sitting Hen from `other`, who keeps tile `tile`
    LEFT = "left"  # the player left the game (not a turn of its own)


@dataclass(frozen=True, slots=True)
class Turn:
    """One line of a game's story, players given by seat.

    `tile` is the tile taken or stolen, or on a failure the tile returned to the grill;
    `other` is the robbed seat for a steal (or the Hen's), or the tile turned face down
    on a failure.
    """

    seat: int
    outcome: Outcome
    tile: int | None = None
    other: int | None = None

    def to_row(self) -> list[Any]:
        """Compact JSON form: [seat, outcome, tile, other]."""
        return [self.seat, str(self.outcome), self.tile, self.other]

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Turn:
        seat, outcome, tile, other = row
        return cls(seat, Outcome(outcome), tile, other)


@dataclass(slots=True)
class _Tally:
    """A player's counters while the events are read."""

    holding: Holding = field(default_factory=Holding)
    left: bool = False
    takes: int = 0
    steals: int = 0
    stolen_from: int = 0
    busts: int = 0
    turns: int = 0


class PickominoHistory:
    """Pickomino's HistoryFigures."""

    kind: str = KIND
    command: str = "/pickomino"
    colour: int = 0xD65C3E  # the game's embeds' colour
    score: ScoreWords = ScoreWords(
        ranking="average_worms",
        name="pickomino.score.average_worms",
        best="pickomino.score.best_worms",
        per_game="pickomino.score.per_game",
    )
    figures: tuple[Figure, ...] = (
        Figure(TILES, "pickomino.score.tiles"),
        Figure(STEALS, "pickomino.score.steals"),
        Figure(STOLEN_FROM, "pickomino.score.stolen_from"),
        Figure(BUSTS, "pickomino.score.busts"),
    )
    favourite: Favourite | None = Favourite(
        "pickomino.score.favourite_tile",
        "pickomino.score.favourite_tile.value",
        "pickomino.score.favourite_tile.none",
    )
    variant: Variant | None = Variant(
        key="extrawurm",
        option="extrawurm",
        name="pickomino.score.extrawurm",
        mark="pickomino.score.extrawurm.mark",
        only="pickomino.score.extrawurm.only",
        without="pickomino.score.extrawurm.without",
        option_name="pickomino.command.option.extrawurm",
        describe="pickomino.score.extrawurm.describe",
    )

    def build_result(self, ended: EndedGame, events: list[dict[str, Any]]) -> GameResult:
        """Derive every counter, the story and the final standings from a game's events.

        Players in events are `str(user_id)`, as in the engine. The final `game_over`
        event's standings are authoritative; a game abandoned before one was played (in
        the lobby, or with no `game_over` event at all) keeps the stacks the events
        built. A player who left has no rank and never wins.
        """
        players = ended.players
        tallies = {str(info.user_id): _Tally() for info in players}
        seat_of = {str(info.user_id): seat for seat, info in enumerate(players)}
        held = {player: tally.holding for player, tally in tallies.items()}
        story: list[Turn] = []
        game_over: dict[str, Any] | None = None
        for event in events:
            if event["type"] == "game_over":
                game_over = event
            elif event["type"] in _STORY_EVENTS:
                replay(event, held)
                turn = _tell(event, tallies, seat_of)
                if turn is not None:
                    story.append(turn)

        results = [
            _player_result(seat, info, tallies[str(info.user_id)])
            for seat, info in enumerate(players)
        ]
        abandoned = ended.abandoned
        if game_over is not None:
            abandoned = abandoned or bool(game_over.get("abandoned"))
            _apply_standings(results, seat_of, game_over["standings"], abandoned)
        _count_taken(results, story)
        turns = sum(tally.turns for tally in tallies.values())
        variant = self.variant.of(ended.options) if self.variant else None
        return ended.result(
            KIND, results, turns=turns, story=list(story), abandoned=abandoned, variant=variant
        )

    def story_lines(
        self, rows: Sequence[list[Any]], seats: Mapping[int, StorySeat], name_of: NameOf
    ) -> list[str]:
        """Who is who (each seat's mark and name), then one line per round: every turn
        of the round as a token after the player's mark, and a leaving where it came."""
        if not rows:
            return []
        separator = t("score.history.separator")
        who = separator.join(
            t("pickomino.score.story.seat", mark=_mark(seat), turn=seat_name(seats[seat], name_of))
            for seat in sorted(seats)
        )
        lines = [who]
        between = t("pickomino.score.story.separator")
        for number, round_ in enumerate(_rounds(map(Turn.from_row, rows)), start=1):
            turns = between.join(
                t("pickomino.score.story.turn", mark=_mark(turn.seat), turn=_token(turn))
                for turn in round_
            )
            lines.append(t("pickomino.score.story.round", number=number, turns=turns))
        return lines

    def story_legend(self) -> str | None:
        return t("pickomino.score.story.legend")

    def score_text(self, seat: StorySeat) -> str:
        bratwurms = seat.end_state.get("bratwurms", 0)
        if not bratwurms:
            return t("pickomino.score.points", score=seat.score)
        return score_text(seat.score, bratwurms)  # as the live message and end screen say it

    def standing(self, seat: StorySeat) -> str:
        tiles = " ".join(f"`{tile}`" for tile in seat.end_state.get("tiles", ()))
        bratwurms = seat.end_state.get("bratwurms", 0)
        if not bratwurms:
            return t("pickomino.score.standing", worms=seat.score, tiles=tiles)
        return t(
            "pickomino.score.standing.summed", score=score_text(seat.score, bratwurms), tiles=tiles
        )


PICKOMINO_HISTORY = PickominoHistory()

_STORY_EVENTS = frozenset({"took", "stole", "failed", "hen_stolen", "left", "bratwurm"})

# Each seat's mark in the story, in the seat colours of the live message.
SEAT_MARKS = ("🟧", "🟦", "🟩", "🟨", "🟥", "🟪", "🟫", "⬜")


def _mark(seat: int) -> str:
    return SEAT_MARKS[seat % len(SEAT_MARKS)]


def _rounds(turns: Iterable[Turn]) -> list[list[Turn]]:
    """The story cut into rounds: a round ends before a seat that already played in it."""
    rounds: list[list[Turn]] = []
    played: set[int] = set()
    for turn in turns:
        if not rounds or (turn.outcome is not Outcome.LEFT and turn.seat in played):
            rounds.append([])
            played = set()
        rounds[-1].append(turn)
        if turn.outcome is not Outcome.LEFT:
            played.add(turn.seat)
    return rounds


def _token(turn: Turn) -> str:
    """One turn, short: `25`, `⚔️22🟦`, `💥↩27 ⬇36`, `🐔🟦`, `🚪`."""
    if turn.outcome is Outcome.TOOK:
        return t("pickomino.score.story.took", tile=turn.tile)
    if turn.outcome is Outcome.STOLE:
        assert turn.other is not None
        return t("pickomino.score.story.stole", tile=turn.tile, victim=_mark(turn.other))
    if turn.outcome is Outcome.HEN:
        assert turn.other is not None
        return t("pickomino.score.story.hen", victim=_mark(turn.other))
    if turn.outcome is Outcome.LEFT:
        return t("pickomino.score.story.left")
    # A failure: `tile` returned to the grill, `other` turned face down.
    if turn.tile is None and turn.other is None:
        return t("pickomino.score.story.failed")
    if turn.other is None:
        return t("pickomino.score.story.failed.returned", tile=turn.tile)
    if turn.tile is None:
        return t("pickomino.score.story.failed.turned_only", turned=turn.other)
    return t("pickomino.score.story.failed.turned", tile=turn.tile, turned=turn.other)


def _tell(
    event: dict[str, Any], tallies: dict[str, _Tally], seat_of: dict[str, int]
) -> Turn | None:
    """Count one turn outcome (or a leaving, or a Bratwurm) and return its story line
    (what it moved is replayed on the holdings apart)."""
    key = event["player"]
    tally, seat = tallies[key], seat_of[key]
    kind = event["type"]
    if kind == "bratwurm":  # not a turn of its own: a Bratwurm from the supply or a player
        return None
    if kind == "left":
        tally.left = True
        return Turn(seat, Outcome.LEFT)
    tally.turns += 1
    if kind == "took":
        tally.takes += 1
        return Turn(seat, Outcome.TOOK, event["tile"])
    if kind == "stole":
        tally.steals += 1
        tallies[event["victim"]].stolen_from += 1
        return Turn(seat, Outcome.STOLE, event["tile"], seat_of[event["victim"]])
    if kind == "hen_stolen":  # the Hen, not the tile: the victim keeps their stack
        tally.steals += 1
        tallies[event["victim"]].stolen_from += 1
        return Turn(seat, Outcome.HEN, event["tile"], seat_of[event["victim"]])
    tally.busts += 1
    return Turn(seat, Outcome.FAILED, event["returned"], event["turned"])


def _player_result(seat: int, info: SeatInfo, tally: _Tally) -> PlayerResult:
    return PlayerResult(
        seat=seat,
        user_id=info.user_id,
        name=info.name,
        is_bot=info.is_bot,
        left=tally.left,
        score=tally.holding.score,
        details={
            TILES: tally.takes,
            STEALS: tally.steals,
            STOLEN_FROM: tally.stolen_from,
            BUSTS: tally.busts,
            TURNS: tally.turns,
        },
        end_state=_end_state(tally.holding.tiles, tally.holding.bratwurms),
    )


def _apply_standings(
    results: list[PlayerResult],
    seat_of: dict[str, int],
    standings: list[dict[str, Any]],
    abandoned: bool,
) -> None:
    for standing in standings:
        player = results[seat_of[standing["player"]]]
        player.end_state = _end_state(standing["tiles"], standing.get("bratwurms", 0))
        player.score = standing["worms"]
        player.rank = standing["rank"]
        player.won = not abandoned and not player.left and standing["rank"] == 1


def _count_taken(results: list[PlayerResult], story: Iterable[Turn]) -> None:
    """Each player's tiles taken or stolen, by tile: their favourite tile."""
    for turn in story:
        if turn.outcome in (Outcome.TOOK, Outcome.STOLE) and turn.tile is not None:
            taken = results[turn.seat].taken
            taken[turn.tile] = taken.get(turn.tile, 0) + 1


def _end_state(tiles: Iterable[int], bratwurms: int) -> dict[str, Any]:
    """The stack bottom to top, then any extra tile; Bratwurms when there are some."""
    state: dict[str, Any] = {"tiles": list(tiles)}
    if bratwurms:
        state["bratwurms"] = bratwurms
    return state
