"""Picker's buttons: one per die still on the table (its colour and number), and Hint.

Eight dice at most: two rows of four, so the buttons line up with the colours; Hint
sits on the last row.
"""

from __future__ import annotations

from bot.games.picker.adapter import pick_move
from bot.games.picker.engine import Game
from bot.games.picker.words import COLOUR_MARK
from bot.i18n import t
from bot.render.custom_ids import ClickAction
from bot.render.layout import ButtonSpec, Component, Layout, Style
from bot.render.lobby import session_ref
from bot.sessions.model import Session

DICE_PER_ROW = 4


def round_layout(session: Session, game: Game) -> Layout:
    seat = session.seat_by_player(game.current_player) if not game.is_over else None
    computer_moves = seat is not None and seat.computer_plays
    dice: list[Component] = [
        ButtonSpec(
            session_ref(session, ClickAction.MOVE, pick_move(colour)),
            str(game.value_of(colour)),
            Style.PRIMARY,
            disabled=computer_moves,
            emoji=COLOUR_MARK[colour],
        )
        for colour in game.available()
    ]
    starts = range(0, len(dice), DICE_PER_ROW)
    rows: Layout = [dice[start : start + DICE_PER_ROW] for start in starts]
    if session.hints and not computer_moves:
        hint = ButtonSpec(session_ref(session, ClickAction.HINT), t("game.button.hint"), emoji="💡")
        if rows and len(rows[-1]) < DICE_PER_ROW + 1:
            rows[-1] = [*rows[-1], hint]
        else:
            rows.append([hint])
    return rows
