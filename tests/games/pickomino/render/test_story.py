"""The live message's log: its last lines are the same however much of the log is read."""

from __future__ import annotations

import random

import pytest

from bot.games.pickomino.adapter import PickominoAdapter
from bot.games.pickomino.render.story import log_lines
from bot.sessions.model import LOG_LENGTH

PLAYERS = ["1", "2", "-3"]  # a computer player's rolls are always told


@pytest.mark.parametrize("seed", range(4))
def test_the_last_lines_read_from_the_end_are_the_full_logs_last_lines(seed: int) -> None:
    adapter = PickominoAdapter()
    rng = random.Random(seed)
    game = adapter.new_game(PLAYERS, {"extrawurm": seed % 2 == 1}, rng)
    log: list[dict] = []
    steps = 0
    while not game.is_over and steps < 400:
        move = adapter.bot_move(game, "easy")
        log = [*log, *adapter.play(game, game.current_player, move, rng)][-LOG_LENGTH:]
        steps += 1
        for last in (1, 4, LOG_LENGTH):
            full = log_lines(log, str, lambda player: player.startswith("-"))
            assert (
                log_lines(log, str, lambda player: player.startswith("-"), last=last)
                == (full[-last:])
            )
    assert steps > 20  # a real game was played
