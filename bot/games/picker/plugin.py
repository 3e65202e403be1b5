"""Picker as the platform sees it: one GamePlugin (bot/plugin/game_plugin.py)."""

from __future__ import annotations

from bot.games.picker import CATALOGS
from bot.games.picker.adapter import KIND, PickerAdapter
from bot.games.picker.ai.exact import TABLES
from bot.games.picker.commands import PickerCog
from bot.games.picker.history import PICKER_HISTORY
from bot.games.picker.learn import PICKER_TUTORIAL
from bot.games.picker.render import PickerRenderer
from bot.games.picker.scenario import run_scenario
from bot.plugin.game_plugin import GamePlugin

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
    # Three-player Hard's exact tables: 45 s of building in the background; Hard plays
    # its look-ahead until they are ready.
    warm_up=TABLES.start,
)
