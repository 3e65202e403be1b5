"""Everything a Pickomino session shows while it is played and once it has ended (the
lobby and the shared buttons are the platform's: bot/render/lobby.py)."""

from __future__ import annotations

from typing import Any

from bot.games.pickomino.render.buttons import turn_layout
from bot.games.pickomino.render.embeds import COLOUR, final_embed, game_embed
from bot.games.pickomino.render.ending import END_PICTURE, end_picture
from bot.games.pickomino.render.text import options_lines
from bot.games.pickomino.render.turn_view import TurnView
from bot.render.layout import Picture, Rendered
from bot.render.names import namer
from bot.sessions.model import Session


class PickominoRenderer:
    colour = COLOUR

    def playing(self, session: Session) -> Rendered:
        game = session.game
        view = TurnView.of(session, game)
        return Rendered(
            game_embed(session, game, view), turn_layout(session, game, view, namer(session.seats))
        )

    def final(self, session: Session, events: list[dict[str, Any]]) -> Rendered:
        embed = final_embed(session, session.game, events)
        drawn = end_picture(session, session.game, events)
        if drawn is None:
            return Rendered(embed, [])
        picture = Picture(END_PICTURE, drawn)
        embed.set_image(url=picture.url)
        return Rendered(embed, [], picture)

    def options_lines(
        self, options: dict[str, Any], timer_seconds: int | None, hints: bool
    ) -> list[str]:
        return options_lines(options, timer_seconds, hints)


__all__ = ["PickominoRenderer"]
