"""The end picture of a Pickomino game: what everyone holds and everyone's score over
the turns, drawn from the game's stored events."""

from __future__ import annotations

from bot.games.pickomino.end_picture import Axes, PlayerFinal, draw_end_picture
from bot.games.pickomino.engine import Game
from bot.games.pickomino.render.summary import GameSummary
from bot.i18n import t
from bot.sessions.model import Ending, Session

END_PICTURE = "pickomino-end.png"


def end_picture(session: Session, game: Game, summary: GameSummary) -> bytes | None:
    """PNG bytes: one row per player in standing order with their tiles in the order
    the end text lists them, the winner outlined (none when the game was abandoned);
    None for a game ended before any turn was over."""
    if summary.turns == 0:
        return None
    abandoned = session.ending is Ending.ABANDONED
    finals = [
        PlayerFinal(
            name=session.name_of(standing.player),  # the picture's font has no 🤖
            stack=standing.tiles,
            score=standing.worms,
            winner=standing.rank == 1 and not abandoned,
            score_by_turn=tuple(summary.players[standing.player].score_by_turn),
            bratwurms=standing.bratwurms,
        )
        for standing in game.standings()
    ]
    score = (
        "pickomino.final.axis.worms" if game.expansion is None else "pickomino.final.axis.points"
    )
    return draw_end_picture(finals, Axes(t("pickomino.final.axis.turns"), t(score)))
