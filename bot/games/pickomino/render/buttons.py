"""Pickomino's button layouts: the lobby and its computer-player levels, a turn, the end
of a game, the end confirmation.

A turn never needs more than 5 rows of 5: Roll and the first claims, the faces 1 to 5,
the worm and Hint, then more claims. Only the "any lower tile" option can make more
claims than that (up to 16: every grill tile below the total, and a steal); then they
are all offered in one select menu, on the row under Roll, instead of as buttons.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from bot.games.pickomino.adapter import ROLL, claim_move, keep_move
from bot.games.pickomino.ai import Level
from bot.games.pickomino.engine import ClaimOption, Face, Game, Source
from bot.games.pickomino.render.text import FACE_EMOJI, Namer
from bot.i18n import t
from bot.render.custom_ids import Action, ButtonRef
from bot.render.layout import (
    MAX_LABEL,
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
from bot.sessions.model import Session

CLAIMS_BESIDE_ROLL = MAX_PER_ROW - 1
CLAIM_ROWS_BELOW = 2
MAX_CLAIM_BUTTONS = CLAIMS_BESIDE_ROLL + CLAIM_ROWS_BELOW * MAX_PER_ROW


def _ref(session: Session, action: Action, arg: str = "") -> str:
    assert session.id is not None
    return ButtonRef(action, session.id, session.version, arg).encode()


def lobby_layout(session: Session) -> Layout:
    bots: list[Component] = [
        ButtonSpec(_ref(session, Action.ADD_BOT), t("lobby.button.add_bot"), emoji="🤖")
    ]
    if session.bot_seats:
        bots.append(ButtonSpec(_ref(session, Action.DROP_BOT), t("lobby.button.remove_bot")))
    return [
        [
            ButtonSpec(_ref(session, Action.JOIN), t("lobby.button.join"), Style.SUCCESS),
            ButtonSpec(_ref(session, Action.LEAVE), t("lobby.button.leave")),
            ButtonSpec(_ref(session, Action.START), t("lobby.button.start"), Style.PRIMARY),
            ButtonSpec(_ref(session, Action.CANCEL), t("lobby.button.cancel"), Style.DANGER),
        ],
        bots,
    ]


def bot_level_layout(session: Session) -> Layout:
    """The levels the host picks from after Add bot (on an ephemeral message)."""
    return [
        [
            ButtonSpec(_ref(session, Action.BOT, level.value), t(f"lobby.bot_level.{level.value}"))
            for level in Level
        ]
    ]


def final_layout(session: Session) -> Layout:
    label = t("game.button.play_again")
    return [[ButtonSpec(_ref(session, Action.AGAIN), label, Style.SUCCESS, emoji="🔁")]]


def end_confirm_layout(session: Session) -> Layout:
    label = t("end.button.confirm")
    return [[ButtonSpec(_ref(session, Action.END), label, Style.DANGER)]]


def claims_in_menu(options: list[ClaimOption]) -> bool:
    """Whether the claims are too many for buttons, and so are offered in a menu."""
    return len(options) > MAX_CLAIM_BUTTONS


def shown_claims(options: list[ClaimOption]) -> list[ClaimOption]:
    """The claims in the order the turn offers them: grill tiles highest first, then steals.
    All of them: there are at most 16 (one per tile), and a menu holds 25."""
    return sorted(options, key=lambda option: (option.source is Source.STEAL, -option.tile))


def turn_layout(session: Session, game: Game, name_of: Namer) -> Layout:
    legal = game.legal_actions()
    roll_counts = Counter(game.roll or ())
    move = Action.MOVE
    options = shown_claims(list(legal.claims))
    roll = ButtonSpec(
        _ref(session, move, ROLL), t("game.button.roll"), Style.PRIMARY, not legal.can_roll, "🎲"
    )

    def face_button(face: Face) -> ButtonSpec:
        count = roll_counts[face]
        label = t("game.button.face", count=count) if game.roll is not None else ""
        keepable = face in legal.keepable
        style = Style.PRIMARY if keepable else Style.SECONDARY
        return ButtonSpec(
            _ref(session, move, keep_move(face)), label, style, not keepable, FACE_EMOJI[face]
        )

    bot_turn = _bot_to_move(session, game)
    worm_row: list[Component] = [face_button(Face.WORM)]
    if session.hints and not bot_turn:
        worm_row.append(ButtonSpec(_ref(session, Action.HINT), t("game.button.hint"), emoji="💡"))
    faces_rows: Layout = [
        [face_button(face) for face in Face if face is not Face.WORM],
        worm_row,
    ]
    if claims_in_menu(options):
        rows: Layout = [[roll], [_claim_menu(session, options, name_of)], *faces_rows]
    else:
        claims: list[Component] = [
            ButtonSpec(
                _ref(session, move, claim_move(option)),
                _claim_label(option, name_of),
                Style.SUCCESS,
            )
            for option in options
        ]
        rows = [[roll, *claims[:CLAIMS_BESIDE_ROLL]], *faces_rows]
        rest = claims[CLAIMS_BESIDE_ROLL:]
        rows.extend(rest[start : start + MAX_PER_ROW] for start in range(0, len(rest), MAX_PER_ROW))
    if bot_turn:
        # A computer player moves by itself; its components only show what it may do.
        rows = [[replace(component, disabled=True) for component in row] for row in rows]
    return rows


def _claim_menu(session: Session, options: list[ClaimOption], name_of: Namer) -> MenuSpec:
    """Every claim as one option of a menu; the option's value is the move it makes."""
    return MenuSpec(
        _ref(session, Action.CLAIMS),
        t("game.menu.placeholder"),
        tuple(MenuOption(_menu_label(option, name_of), claim_move(option)) for option in options),
    )


def _bot_to_move(session: Session, game: Game) -> bool:
    seat = session.seat_by_player(game.current_player) if not game.is_over else None
    return seat is not None and seat.is_bot


def _claim_label(option: ClaimOption, name_of: Namer) -> str:
    if option.source is Source.STEAL:
        name = name_of(option.victim or "")
        return clip(t("game.button.steal", tile=option.tile, name=name), MAX_LABEL)
    return t("game.button.take", tile=option.tile)


def _menu_label(option: ClaimOption, name_of: Namer) -> str:
    if option.source is Source.STEAL:
        name = name_of(option.victim or "")
        text = t("game.menu.steal", tile=option.tile, name=name, worms=option.worms)
        return clip(text, MAX_OPTION_TEXT)
    return t("game.menu.take", tile=option.tile, worms=option.worms)
