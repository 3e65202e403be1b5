"""Picker as the platform sees it: one GamePlugin (bot/plugin/game_plugin.py)."""

from __future__ import annotations

from pathlib import Path

from bot.games.picker import CATALOGS
from bot.games.picker.adapter import KIND, PickerAdapter
from bot.games.picker.ai import exact
from bot.games.picker.commands import PickerCog
from bot.games.picker.history import PICKER_HISTORY
from bot.games.picker.learn import PICKER_TUTORIAL
from bot.games.picker.render import PickerRenderer
from bot.games.picker.review import PickerReviewer
from bot.games.picker.scenario import run_scenario
from bot.games.picker.table import PICKER_TABLE
from bot.plugin.game_plugin import GamePlugin


def warm_up(cache: Path | None) -> None:
    """Three-player Hard's exact tables: 45 s of building in the background, or loaded
    from `cache`; Hard plays its look-ahead until they are ready. The tables' `start` is
    looked up at each call, so a test that stops it stops it here too."""
    exact.TABLES.start(cache)


PICKER = GamePlugin(
    kind=KIND,
    adapter=PickerAdapter(),
    renderer=PickerRenderer(),
    command="picker",
    cog=PickerCog,
    history=PICKER_HISTORY,
    catalogs=CATALOGS,
    play_scenario=run_scenario,
    tutorial=PICKER_TUTORIAL,
    warm_up=warm_up,
    reviewer=PickerReviewer(),
    table=PICKER_TABLE,
)
