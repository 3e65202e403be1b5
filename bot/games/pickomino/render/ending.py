"""The end picture of a Pickomino game: everyone's score over the turns, drawn from
the game's stored events (the standings are the end screen's text)."""

from __future__ import annotations

from bot.games.pickomino.end_picture import Axes, PlayerFinal, draw_end_picture
from bot.games.pickomino.engine import Game
from bot.games.pickomino.render.summary import GameSummary
from bot.i18n import t
from bot.sessions.model import Session

END_PICTURE = "pickomino-end.png"


def end_picture(session: Session, game: Game, summary: GameSummary) -> bytes | None:
    """PNG bytes: each player's score turn by turn, with a legend of their colours in
    standing order; None for a game ended before any turn was over."""
    if summary.turns == 0:
        return None
    finals = [
        PlayerFinal(
            name=session.name_of(standing.player),  # the picture's font has no 🤖
            score_by_turn=tuple(summary.players[standing.player].score_by_turn),
        )
        for standing in game.standings()
    ]
    score = (
        "pickomino.final.axis.worms" if game.expansion is None else "pickomino.final.axis.points"
    )
    return draw_end_picture(finals, Axes(t("pickomino.final.axis.turns"), t(score)))
