"""The end picture of a Pickomino game: the final stacks and everyone's worms over the
turns, drawn from the game's stored events."""

from __future__ import annotations

from typing import Any

from bot.games.pickomino.end_picture import PlayerFinal, draw_end_picture
from bot.games.pickomino.engine import Game
from bot.games.pickomino.render.summary import GameSummary
from bot.render.names import namer
from bot.sessions.model import Ending, Session

END_PICTURE = "pickomino-end.png"


def end_picture(session: Session, game: Game, events: list[dict[str, Any]]) -> bytes:
    """PNG bytes: one row per player in standing order, the winner starred (none when
    the game was abandoned)."""
    name_of = namer(session.seats)
    summary = GameSummary.from_events(game.players, events)
    abandoned = session.ending is Ending.ABANDONED
    finals = [
        PlayerFinal(
            name=name_of(standing.player),
            stack=tuple(game.stacks[standing.player]),
            score=standing.worms,
            winner=standing.rank == 1 and not abandoned,
            worms_by_turn=tuple(summary.players[standing.player].worms_by_turn),
        )
        for standing in game.standings()
    ]
    return draw_end_picture(finals)
