"""Picker as the platform sees it: one GamePlugin (bot/games/plugin.py)."""

from __future__ import annotations

from bot.games.picker.adapter import KIND, PickerAdapter
from bot.games.picker.render import PickerRenderer
from bot.games.picker.scenario import run_scenario
from bot.games.plugin import GamePlugin

PICKER = GamePlugin(
    kind=KIND,
    adapter=PickerAdapter(),
    renderer=PickerRenderer(),
    extension="cogs.picker",
    command="picker",
    play_scenario=run_scenario,
)
