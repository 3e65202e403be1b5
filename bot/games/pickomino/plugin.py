"""Pickomino as the platform sees it: one GamePlugin (bot/plugin/game_plugin.py)."""

from __future__ import annotations

from bot.games.pickomino import CATALOGS
from bot.games.pickomino.adapter import KIND, PickominoAdapter
from bot.games.pickomino.ai import warm_up
from bot.games.pickomino.commands import PickominoCog
from bot.games.pickomino.history import PICKOMINO_HISTORY
from bot.games.pickomino.learn import PICKOMINO_TUTORIAL
from bot.games.pickomino.pictures import pickomino_emojis
from bot.games.pickomino.render import PickominoRenderer
from bot.games.pickomino.review import PickominoReviewer
from bot.games.pickomino.scenario import run_scenario
from bot.plugin.game_plugin import GamePlugin

PICKOMINO = GamePlugin(
    kind=KIND,
    adapter=PickominoAdapter(),
    renderer=PickominoRenderer(),
    command="pickomino",
    cog=PickominoCog,
    history=PICKOMINO_HISTORY,
    catalogs=CATALOGS,
    pager_prefix="pks:h",  # its score pager's buttons before the kind was in the id
    play_scenario=run_scenario,
    warm_up=warm_up,
    emojis=pickomino_emojis,
    tutorial=PICKOMINO_TUTORIAL,
    reviewer=PickominoReviewer(),
)
