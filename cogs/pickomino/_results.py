"""History's record of an ended Pickomino game, written in the final commit's transaction."""

from __future__ import annotations

from bot.games.pickomino.history import PICKOMINO_HISTORY
from bot.history.recorder import recorder
from bot.storage.results import SqliteResultStore

record_result = recorder(PICKOMINO_HISTORY, SqliteResultStore())
