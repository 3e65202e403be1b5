"""The history pager's custom_ids: the old Pickomino form still parses as Pickomino, other
games carry their kind, and forged ids (huge or negative numbers, unknown prefixes) are
no pager turn at all."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.registry import GAMES
from bot.history.models import Cursor
from bot.render.custom_ids import MAX_CUSTOM_ID
from bot.score.pager import (
    MAX_SNOWFLAKE,
    MAX_SQLITE_INTEGER,
    Direction,
    PagerIds,
    PageTurn,
    base36,
)

# The games served by default: Pickomino keeps its pager prefix from before the kind.
IDS = PagerIds(GAMES.pager_prefixes())


def test_an_id_posted_before_the_game_kind_was_in_it_pages_pickomino():
    turn = IDS.parse("pks:h:1:0:n:2:t85s00.16")
    assert turn == PageTurn(1, None, Direction.NEXT, 2, Cursor(1_767_225_600, 42), "pickomino")
    assert turn is not None and turn.kind == "pickomino"


def test_another_games_id_carries_its_kind():
    turn = PageTurn(5, 6, Direction.PREVIOUS, 3, Cursor(100, 7), kind="race")
    assert IDS.encode(turn) == "hs:race:5:6:p:3:2s.7"
    assert IDS.parse(IDS.encode(turn)) == turn


@settings(max_examples=60, deadline=None)
@given(
    asker=st.integers(1, MAX_SNOWFLAKE),
    player=st.integers(0, MAX_SNOWFLAKE),
    page=st.integers(1, 10**9),
    ended_at=st.integers(0, MAX_SQLITE_INTEGER),
    game_id=st.integers(0, MAX_SQLITE_INTEGER),
    kind=st.sampled_from(["pickomino", "race", "extrawurm", "abcdefghijkl"]),
)
def test_every_valid_turn_round_trips_within_discords_limit(
    asker, player, page, ended_at, game_id, kind
):
    for direction in Direction:
        turn = PageTurn(asker, player or None, direction, page, Cursor(ended_at, game_id), kind)
        custom_id = IDS.encode(turn)
        assert len(custom_id) <= MAX_CUSTOM_ID
        assert re.fullmatch(IDS.template, custom_id)
        assert IDS.parse(custom_id) == turn


@pytest.mark.parametrize(
    "custom_id",
    [
        "pks:h:1:0:n:2:" + base36(MAX_SQLITE_INTEGER + 1) + ".1",  # past SQLite's integers
        "pks:h:1:0:n:2:1." + base36(MAX_SQLITE_INTEGER + 1),
        "pks:h:1:0:n:2:" + "z" * 13 + ".1",
        "pks:h:1:0:n:2:" + "z" * 14 + ".1",  # longer than any cursor
        f"pks:h:{MAX_SNOWFLAKE + 1}:0:n:2:1.1",  # no such user
        f"pks:h:1:{10**20}:n:2:1.1",
        "pks:h:" + "9" * 21 + ":0:n:2:1.1",
        "pks:h:0:0:n:2:1.1",
        "pks:h:1:0:n:" + "9" * 11 + ":1.1",
        "pks:h:1:0:n:10000000000:1.1",
        "pks:h:-1:0:n:2:1.1",  # negative
        "pks:h:1:0:n:-2:1.1",
        "pks:h:1:0:n:2:-1.1",
        "pks:x:1:0:n:2:1.1",  # unknown prefixes
        "hs::1:0:n:2:1.1",
        "hs:Race:1:0:n:2:1.1",
        "hs:a_very_long_kind:1:0:n:2:1.1",
        "pks:h:1:0:x:2:1.1",
        "pks:h:1:0:n:2:1.1:extra",
        "",
    ],
)
def test_forged_ids_are_no_page_turn(custom_id):
    assert IDS.parse(custom_id) is None


def test_encoding_refuses_what_parsing_would():
    with pytest.raises(ValueError):
        IDS.encode(PageTurn(1, None, Direction.NEXT, 1, Cursor(-1, 1), "pickomino"))
    with pytest.raises(ValueError):
        IDS.encode(PageTurn(1, None, Direction.NEXT, 1, Cursor(1, 1), kind="x" * 40))
