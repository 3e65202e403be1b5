"""Everything a Picker session shows while it is played and once it has ended (the lobby
and the shared buttons are the platform's: bot/render/lobby.py)."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.picker.render.buttons import round_layout
from bot.games.picker.render.embeds import COLOUR, final_embed, round_embed
from bot.games.picker.words import options_lines
from bot.render.layout import Rendered
from bot.sessions.model import Session


class PickerRenderer:
    colour = COLOUR

    def playing(self, session: Session) -> Rendered:
        return Rendered(round_embed(session, session.game), round_layout(session, session.game))

    def final(self, session: Session) -> discord.Embed:
        return final_embed(session, session.game)

    def options_lines(
        self, options: dict[str, Any], timer_seconds: int | None, hints: bool
    ) -> list[str]:
        return options_lines(options, timer_seconds, hints)


__all__ = ["PickerRenderer"]
