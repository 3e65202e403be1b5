"""The one place outside a game's own folder that names the games: what `make run`
serves. A test may serve another set (`GAMES.with_game(...)`, handed to the bot)."""

from __future__ import annotations

from bot.games.picker.plugin import PICKER
from bot.games.pickomino.plugin import PICKOMINO
from bot.plugin import Games

GAMES = Games((PICKOMINO, PICKER))
# A scenario file that names no game is Pickomino's (shared/SCENARIOS.md).
SCENARIO_DEFAULT_KIND = PICKOMINO.kind
