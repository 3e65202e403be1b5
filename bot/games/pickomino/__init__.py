"""Pickomino (Heckmeck): engine, computer players, rendering, adapter and tools.

Its strings are in `i18n/<locale>/<area>.json` beside this file, read as soon as the game
is imported: its command group resolves its English names when its class is defined.
"""

from pathlib import Path

from bot.i18n import add_catalogs

CATALOGS = Path(__file__).parent / "i18n"
add_catalogs(CATALOGS)
