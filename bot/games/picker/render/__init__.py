"""Everything a Picker session shows while it is played and once it has ended (the lobby
and the shared buttons are the platform's: bot/render/lobby.py)."""

from __future__ import annotations

from typing import Any

from bot.games.picker.render.blocks import COLOUR, final_blocks, round_blocks
from bot.games.picker.render.buttons import round_layout
from bot.games.picker.words import options_lines
from bot.render.layout import Rendered
from bot.sessions.model import Session


class PickerRenderer:
    colour = COLOUR

    def playing(self, session: Session) -> Rendered:
        game = session.game
        return Rendered(round_blocks(session, game), round_layout(session, game), COLOUR.value)

    def final(self, session: Session, events: list[dict[str, Any]]) -> Rendered:
        return Rendered(final_blocks(session, session.game, events), [], COLOUR.value)

    def options_lines(
        self, options: dict[str, Any], timer_seconds: int | None, hints: bool
    ) -> list[str]:
        return options_lines(options, timer_seconds, hints)


__all__ = ["PickerRenderer"]
