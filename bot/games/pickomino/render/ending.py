"""The end picture of a Pickomino game: the final stacks and everyone's worms over the
turns, drawn from the game's stored events."""

from __future__ import annotations

from bot.games.pickomino.end_picture import PlayerFinal, draw_end_picture
from bot.games.pickomino.engine import Game
from bot.games.pickomino.render.summary import GameSummary
from bot.sessions.model import Ending, Session

END_PICTURE = "pickomino-end.png"


def end_picture(session: Session, game: Game, summary: GameSummary) -> bytes | None:
    """PNG bytes: one row per player in standing order, the winner starred (none when
    the game was abandoned); None for a game ended before any turn was over."""
    if summary.turns == 0:
        return None
    abandoned = session.ending is Ending.ABANDONED
    finals = [
        PlayerFinal(
            name=session.name_of(standing.player),  # the picture's font has no 🤖
            stack=tuple(game.stacks[standing.player]),
            score=standing.worms,
            winner=standing.rank == 1 and not abandoned,
            worms_by_turn=tuple(summary.players[standing.player].worms_by_turn),
        )
        for standing in game.standings()
    ]
    return draw_end_picture(finals)
