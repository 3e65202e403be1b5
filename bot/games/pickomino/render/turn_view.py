"""Each fact of a turn computed once per render: the text and the buttons both read it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.games.pickomino.engine import ClaimOption, Face, Game
from bot.games.pickomino.render.what_now import shown_claims
from bot.render.layout import MAX_PER_ROW
from bot.sessions.model import Session

CLAIMS_BESIDE_ROLL = MAX_PER_ROW - 1
CLAIM_ROWS_BELOW = 2
MAX_CLAIM_BUTTONS = CLAIMS_BESIDE_ROLL + CLAIM_ROWS_BELOW * MAX_PER_ROW


@dataclass(frozen=True, slots=True)
class TurnView:
    """The turn as the live message shows it."""

    can_roll: bool
    keepable: frozenset[Face]
    roll_counts: Counter[Face]
    claims: tuple[ClaimOption, ...]  # in the order the message offers them
    claims_in_menu: bool  # too many for buttons: offered in one select menu
    bot_to_move: bool  # a computer player moves: the components only show what it may do
    can_weasel: bool = False  # Extrawurm: the Weasel's holder may roll the dice again
    can_accept_failure: bool = False  # Extrawurm: a roll with no new face, Weasel unused

    @classmethod
    def of(cls, session: Session, game: Game) -> TurnView:
        legal = game.legal_actions()
        claims = shown_claims(legal.claims)
        seat = session.seat_by_player(game.current_player) if not game.is_over else None
        return cls(
            can_roll=legal.can_roll,
            keepable=frozenset(legal.keepable),
            roll_counts=Counter(game.roll or ()),
            claims=tuple(claims),
            claims_in_menu=len(claims) > MAX_CLAIM_BUTTONS,
            bot_to_move=seat is not None and seat.is_bot,
            can_weasel=legal.can_weasel,
            can_accept_failure=legal.can_accept_failure,
        )
