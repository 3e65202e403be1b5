"""Pickomino as the platform sees it: one GamePlugin (bot/games/plugin.py)."""

from __future__ import annotations

from bot.games.pickomino.adapter import KIND, PickominoAdapter
from bot.games.pickomino.ai import warm_up
from bot.games.pickomino.pictures import pickomino_emojis
from bot.games.pickomino.render import PickominoRenderer
from bot.games.pickomino.scenario import run_scenario
from bot.games.plugin import GamePlugin

PICKOMINO = GamePlugin(
    kind=KIND,
    adapter=PickominoAdapter(),
    renderer=PickominoRenderer(),
    extension="cogs.pickomino",
    command="pickomino",
    play_scenario=run_scenario,
    warm_up=warm_up,
    emojis=pickomino_emojis,
)
