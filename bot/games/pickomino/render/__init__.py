"""Everything a Pickomino session shows while it is played and once it has ended (the
lobby and the shared buttons are the platform's: bot/render/lobby.py)."""

from __future__ import annotations

from typing import Any

from bot.games.pickomino.render.blocks import COLOUR, final_blocks, game_blocks, seat_colour
from bot.games.pickomino.render.buttons import turn_layout
from bot.games.pickomino.render.text import options_lines
from bot.games.pickomino.render.turn_view import TurnView
from bot.render.layout import Rendered
from bot.render.names import namer
from bot.sessions.model import Session


class PickominoRenderer:
    colour = COLOUR

    def playing(self, session: Session) -> Rendered:
        game = session.game
        view = TurnView.of(session, game)
        layout = turn_layout(session, game, view, namer(session.seats))
        return Rendered(game_blocks(session, game, view), layout, seat_colour(game))

    def final(self, session: Session, events: list[dict[str, Any]]) -> Rendered:
        return Rendered(final_blocks(session, session.game, events), [], COLOUR.value)

    def options_lines(
        self, options: dict[str, Any], timer_seconds: int | None, hints: bool
    ) -> list[str]:
        return options_lines(options, timer_seconds, hints)


__all__ = ["PickominoRenderer"]
