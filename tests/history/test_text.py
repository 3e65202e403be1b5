"""bot.history.text: the lines the score pages show, in Pickomino's words."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from bot.games.pickomino.history import PICKOMINO_HISTORY, Outcome, Turn
from bot.history.models import GameStory, GameSummary, SeatLine
from bot.history.text import fit_lines, history_line, standing_lines, story_lines


def name_of(user_id: int, stored: str) -> str:
    return stored


def seat(index: int, name: str, tiles: tuple[int, ...] = (), **kwargs) -> SeatLine:
    values = dict(score=0, rank=None, won=False, left=False, is_bot=False)
    values.update(kwargs)
    return SeatLine(
        seat=index, user_id=index + 1, name=name, end_state={"tiles": list(tiles)}, **values
    )


GAME = GameSummary(
    game="pickomino",
    game_id=12,
    channel_id=5,
    started_at=1_699_999_000,
    ended_at=1_700_000_000,
    abandoned=False,
    has_bots=True,
    seats=(
        seat(0, "Anne", score=7, tiles=(25, 33), rank=1, won=True),
        seat(1, "Robot", score=3, tiles=(29,), rank=2, is_bot=True),
        seat(2, "Thomas", left=True),
    ),
)


def test_a_history_line():
    assert history_line(GAME, PICKOMINO_HISTORY, name_of) == (
        "`#12` <t:1700000000:R> · 🏆 **Anne** 7🪱 · 🤖 Robot 3🪱 · ~~Thomas~~ (left)"
    )


def test_story_and_standings_lines():
    turns = (
        Turn(0, Outcome.TOOK, 27),
        Turn(1, Outcome.STOLE, 27, 0),
        Turn(2, Outcome.LEFT),
        Turn(0, Outcome.FAILED, None, None),
        Turn(1, Outcome.FAILED, 27, 36),
        Turn(0, Outcome.FAILED, None, 35),
    )
    rows = tuple(turn.to_row() for turn in turns)
    # Who is who, then one line per round: each turn a token after the player's mark.
    assert story_lines(GameStory(GAME, rows), PICKOMINO_HISTORY, name_of) == [
        "🟧 Anne · 🟦 🤖 Robot · 🟩 Thomas",
        "`1.` 🟧27  🟦⚔️27🟧  🟩🚪",
        "`2.` 🟧💥  🟦💥↩27 ⬇36",
        "`3.` 🟧💥⬇35",
    ]
    assert standing_lines(GAME, PICKOMINO_HISTORY, name_of) == [
        "1. 🏆 **Anne** · 7🪱 `25` `33`",
        "2. 🤖 Robot · 3🪱 `29`",
        "– ~~Thomas~~ left the game",
    ]


def test_a_round_starts_where_a_seat_plays_again_whoever_began():
    # The host in seat 2 began; Anne (seat 0) left before her first turn.
    turns = (
        Turn(2, Outcome.TOOK, 22),
        Turn(0, Outcome.LEFT),
        Turn(1, Outcome.TOOK, 23),
        Turn(2, Outcome.TOOK, 24),
        Turn(1, Outcome.FAILED, 23, None),
    )
    rows = tuple(turn.to_row() for turn in turns)
    assert story_lines(GameStory(GAME, rows), PICKOMINO_HISTORY, name_of)[1:] == [
        "`1.` 🟩22  🟧🚪  🟦23",
        "`2.` 🟩24  🟦💥↩23",
    ]
    assert story_lines(GameStory(GAME, ()), PICKOMINO_HISTORY, name_of) == []


def test_extrawurm_games_are_marked_and_their_bratwurms_shown():
    bratwurms = seat(0, "Anne", score=9, tiles=(25, 33, 13), rank=1, won=True)
    game = replace(GAME, variant="extrawurm", seats=(replace(bratwurms, end_state={
        "tiles": [25, 33, 13], "bratwurms": 2}), *GAME.seats[1:]))  # fmt: skip
    assert history_line(game, PICKOMINO_HISTORY, name_of).startswith(
        "`#12` 🌭 <t:1700000000:R> · 🏆 **Anne** 7\u00a0🪱 + 2\u00a0🌭 =\u00a09\u00a0points · "
    )  # the Bratwurms never counted as worms
    assert standing_lines(game, PICKOMINO_HISTORY, name_of)[0] == (
        "1. 🏆 **Anne** · 7\u00a0🪱 + 2\u00a0🌭 =\u00a09\u00a0points `25` `33` `13`"
    )
    rows = (Turn(1, Outcome.HEN, 33, 0).to_row(),)
    assert story_lines(GameStory(game, rows), PICKOMINO_HISTORY, name_of)[1] == "`1.` 🟦🐔🟧"


@given(st.lists(st.text(min_size=0, max_size=120), max_size=200), st.integers(60, 4096))
def test_fit_lines_stays_within_the_limit_and_keeps_both_ends(lines, limit):
    text = fit_lines(lines, limit)
    assert len(text) <= limit
    if len("\n".join(lines)) <= limit:
        assert text == "\n".join(lines)
    elif lines and len(lines[0]) + 40 < limit // 2:
        assert text.startswith(lines[0])
