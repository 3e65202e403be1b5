"""Games played through the engine for history tests: real event streams, fixed seeds."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.games.pickomino.bench import sensible_random_step
from bot.games.pickomino.engine import Game, Phase, Rules
from bot.games.pickomino.engine.events import event_to_dict
from bot.games.pickomino.history import PICKOMINO_HISTORY
from bot.history.record import EndedGame, GameResult, SeatInfo

GUILD = 1_000
CHANNEL = 2_000
ANNE = SeatInfo(101, "Anne", False)
BRIDGET = SeatInfo(102, "Bridget", False)
THOMAS = SeatInfo(103, "Thomas", False)
CARL = SeatInfo(104, "Carl", False)
ROBOT = SeatInfo(900, "Robot (easy)", True)


@dataclass
class Played:
    """A game played to its end (or abandonment) and every event dict it produced."""

    game: Game
    events: list[dict[str, Any]] = field(default_factory=list)


def play(
    rng: random.Random,
    seats: list[SeatInfo],
    *,
    leave_at_turn: dict[int, int] | None = None,
    extrawurm: bool = False,
) -> Played:
    """Sensible random play (bot.games.pickomino.bench); `leave_at_turn` maps user id to
    the turn number at whose start that player leaves the game."""
    game = Game(
        [str(seat.user_id) for seat in seats],
        Rules(extrawurm=extrawurm),
        first=rng.randrange(len(seats)),
    )
    played = Played(game)
    leaving = dict(leave_at_turn or {})
    while not game.is_over:
        for user_id, turn in list(leaving.items()):
            if game.turn_number >= turn and game.phase is Phase.ROLL and not game.kept:
                del leaving[user_id]
                played.events += map(event_to_dict, game.remove_player(str(user_id)))
        if game.is_over:
            break
        played.events += map(event_to_dict, sensible_random_step(game, rng))
    return played


def result_of(
    played: Played | None,
    seats: list[SeatInfo],
    *,
    game_id: int,
    ended_at: int,
    guild_id: int = GUILD,
    abandoned: bool = False,
) -> GameResult:
    events = played.events if played else []
    return PICKOMINO_HISTORY.build_result(
        EndedGame(
            game_id=game_id,
            guild_id=guild_id,
            channel_id=CHANNEL,
            started_at=ended_at - 1_200,
            ended_at=ended_at,
            options={
                "flip_on_empty_failure": False,
                "extrawurm": played is not None and played.game.expansion is not None,
            },
            players=seats,
            abandoned=abandoned or (played is not None and played.game.abandoned),
        ),
        events,
    )
