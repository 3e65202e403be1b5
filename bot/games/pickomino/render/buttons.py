"""Pickomino's turn buttons (the lobby's and the end's are the platform's, bot/render/lobby.py).

A turn never needs more than 5 rows of 5: Roll and the first claims, the faces of the
roll (none before the first roll) and Hint, then more claims. Only the "any lower
tile" option can make more claims than that (up to 16: every grill tile below the
total, and a steal); then they are all offered in one select menu, on the row under
Roll, instead of as buttons.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.pickomino.adapter import ACCEPT_FAILURE, ROLL, WEASEL, claim_move, keep_move
from bot.games.pickomino.engine import ClaimOption, Face, Game, Source
from bot.games.pickomino.render.text import Namer, die
from bot.games.pickomino.render.turn_view import CLAIMS_BESIDE_ROLL, TurnView
from bot.i18n import t
from bot.render.custom_ids import ClickAction
from bot.render.layout import (
    MAX_OPTION_TEXT,
    MAX_PER_ROW,
    ButtonSpec,
    Component,
    Layout,
    MenuOption,
    MenuSpec,
    Style,
    clip,
)
from bot.render.lobby import session_ref
from bot.sessions.model import Session


def turn_layout(session: Session, game: Game, view: TurnView, name_of: Namer) -> Layout:
    move = ClickAction.MOVE
    roll = ButtonSpec(
        session_ref(session, move, ROLL),
        t("pickomino.button.roll"),
        Style.PRIMARY,
        not view.can_roll,
        "🎲",
    )

    def face_button(face: Face) -> ButtonSpec:
        label = t("pickomino.button.face", count=view.roll_counts[face])
        keepable = face in view.keepable
        style = Style.PRIMARY if keepable else Style.SECONDARY
        ref = session_ref(session, move, keep_move(face))
        return ButtonSpec(ref, label, style, not keepable, die(face))

    # Only the faces the roll shows, worm first: nothing to keep before a roll.
    shown = sorted(view.roll_counts, key=lambda face: (face is not Face.WORM, face))
    extras: list[Component] = []
    if view.can_weasel:
        weasel = session_ref(session, move, WEASEL)
        extras.append(ButtonSpec(weasel, t("pickomino.button.weasel"), Style.PRIMARY, emoji="🦦"))
    if view.can_accept_failure:
        accept = session_ref(session, move, ACCEPT_FAILURE)
        extras.append(ButtonSpec(accept, t("pickomino.button.accept_failure"), Style.DANGER))
    if session.hints and not view.bot_to_move:
        hint = session_ref(session, ClickAction.HINT)
        extras.append(ButtonSpec(hint, t("game.button.hint"), emoji="💡"))
    faces: list[Component] = [*(face_button(face) for face in shown), *extras]
    faces_rows: Layout = [
        faces[start : start + MAX_PER_ROW] for start in range(0, len(faces), MAX_PER_ROW)
    ]
    options = list(view.claims)
    if view.claims_in_menu:
        rows: Layout = [[roll], [_claim_menu(session, options, name_of)], *faces_rows]
    else:
        claims: list[Component] = [
            ButtonSpec(
                session_ref(session, move, claim_move(option)),
                _claim_label(option, game),
                Style.SUCCESS,
            )
            for option in options
        ]
        rows = [[roll, *claims[:CLAIMS_BESIDE_ROLL]], *faces_rows]
        rest = claims[CLAIMS_BESIDE_ROLL:]
        rows.extend(rest[start : start + MAX_PER_ROW] for start in range(0, len(rest), MAX_PER_ROW))
    if view.bot_to_move:
        # A computer player moves by itself; its components only show what it may do.
        rows = [[replace(component, disabled=True) for component in row] for row in rows]
    return rows


def _claim_menu(session: Session, options: list[ClaimOption], name_of: Namer) -> MenuSpec:
    """Every claim as one option of a menu; the option's value is the move it makes."""
    return MenuSpec(
        session_ref(session, ClickAction.MENU),
        t("pickomino.menu.placeholder"),
        tuple(MenuOption(_menu_label(option, name_of), claim_move(option)) for option in options),
    )


def _claim_label(option: ClaimOption, game: Game) -> str:
    """Short enough never to wrap on a phone: the victim is named in the text above."""
    if game.is_hen_steal(option):
        return t("pickomino.button.steal_hen")
    if option.source is Source.STEAL:
        return t("pickomino.button.steal", tile=option.tile)
    return t("pickomino.button.take", tile=option.tile)


def _menu_label(option: ClaimOption, name_of: Namer) -> str:
    if option.source is Source.STEAL:
        name = name_of(option.victim or "")
        text = t("pickomino.menu.steal", tile=option.tile, name=name, worms=option.worms)
        return clip(text, MAX_OPTION_TEXT)
    return t("pickomino.menu.take", tile=option.tile, worms=option.worms)
