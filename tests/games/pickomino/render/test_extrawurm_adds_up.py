"""Extrawurm adds up: whole games played by computer players, every state drawn. At
every state each player's shown score is their worms (11 and 13 included) plus their
Bratwurms, the two shown apart and summed; at the end the end text lists every tile
held (11 and 13 too) and the picture's chart, keyed by the same names in the same
order, ends at each score."""

from __future__ import annotations

import random
import re

import pytest

import bot.games.pickomino.render.ending as ending
from bot.games.pickomino.adapter import PickominoAdapter
from bot.games.pickomino.end_picture import PlayerFinal
from bot.games.pickomino.engine import Game, worms
from bot.games.pickomino.render.blocks import final_blocks, players_text
from bot.render.names import namer
from bot.sessions.model import Ending, Seat, Session, Status

NAMES = ["Anne", "Bob", "Cara", "مرحبا بالعالم"]
NBSP = "\u00a0"


def _session(seed: int) -> Session:
    seats = [Seat(101 + index, name) for index, name in enumerate(NAMES)]
    session = Session("pickomino", 1, 2, 101, seats, id=5, version=1, status=Status.PLAYING)
    session.options = {"extrawurm": True}
    players = [seat.player_id for seat in seats]
    session.game = PickominoAdapter().new_game(players, session.options, random.Random(seed))
    return session


def _check_scores(game: Game, text: str) -> None:
    """Each player's line shows worms and Bratwurms apart and their sum, the game's score."""
    for player, line in zip(game.players, text.splitlines(), strict=True):
        held = sum(worms(tile) for tile in game.tiles_held(player))
        bratwurms = game.bratwurms(player)
        assert held + bratwurms == game.score(player)
        if bratwurms:
            shown = f"{held}{NBSP}🪱 + {bratwurms}{NBSP}🌭 ={NBSP}{game.score(player)}{NBSP}point"
            assert shown in line, line
        else:
            assert line.endswith(f" · {held}{NBSP}🪱"), line


def _text_tiles(line: str) -> list[int]:
    """The tiles of a standings line, as the text fallback writes them (`27 🪱🪱`)."""
    return [int(number) for number in re.findall(r"(\d+) 🪱+", line)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_extrawurm_game_adds_up_at_every_state(seed, monkeypatch):
    session = _session(seed)
    game, adapter, rng = session.game, PickominoAdapter(), random.Random(seed)
    events: list[dict] = []
    name_of = namer(session.seats)
    bratwurms_seen = False
    while not game.is_over:
        _check_scores(game, players_text(game, name_of))
        bratwurms_seen |= any(game.bratwurms(player) for player in game.players)
        move = adapter.bot_move(adapter.copy(game), "easy")
        events += adapter.play(game, game.current_player, move, rng)
    _check_scores(game, players_text(game, name_of))
    # The right-to-left name is isolated: its line keeps its order.
    assert f"\u2068{NAMES[3]}\u2069 · " in players_text(game, name_of)

    drawn: list[list[PlayerFinal]] = []
    monkeypatch.setattr(
        ending, "draw_end_picture", lambda finals, axes: drawn.append(finals) or b"png"
    )
    session.ending = Ending.FINISHED
    blocks = final_blocks(session, game, events)
    text = "\n".join(getattr(block, "content", "") for block in blocks)
    (finals,) = drawn
    standings = game.standings()
    lines = [line for line in text.splitlines() if re.match(r"^\S+ \d+\. ", line)]
    # One list of standings, the text's; the picture charts the scores, keyed by the
    # same names in the same order, each line ending at the score the text shows.
    assert len(lines) == len(standings) == len(finals)
    for standing, line, final in zip(standings, lines, finals, strict=True):
        assert _text_tiles(line) == list(standing.tiles)
        assert final.name == name_of(standing.player) and final.name in line
        assert final.score_by_turn[-1] == standing.worms == game.score(standing.player)
        held = sum(worms(tile) for tile in standing.tiles)
        if standing.bratwurms:
            assert f"{held}{NBSP}🪱 + {standing.bratwurms}{NBSP}🌭" in line
    assert bratwurms_seen or seed != 1  # the first seed's game does show Bratwurms
