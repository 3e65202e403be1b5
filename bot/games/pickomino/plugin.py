"""Pickomino as the platform sees it: one GamePlugin (bot/plugin/game_plugin.py)."""

from __future__ import annotations

from pathlib import Path

from bot.games.pickomino import CATALOGS, end_picture
from bot.games.pickomino.adapter import KIND, PickominoAdapter
from bot.games.pickomino.ai import warm_up as warm_up_computer_players
from bot.games.pickomino.commands import PickominoCog
from bot.games.pickomino.history import PICKOMINO_HISTORY
from bot.games.pickomino.learn import PICKOMINO_TUTORIAL
from bot.games.pickomino.pictures import pickomino_emojis
from bot.games.pickomino.render import PickominoRenderer
from bot.games.pickomino.review import PickominoReviewer
from bot.games.pickomino.scenario import run_scenario
from bot.games.pickomino.table import PICKOMINO_TABLE
from bot.plugin.game_plugin import GamePlugin


def warm_up(cache: Path | None) -> None:
    """The computer players' and hints' tables, then one end picture: the first moves
    and the first game's end in a process pay for neither."""
    warm_up_computer_players(cache)
    end_picture.warm_up()


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
    table=PICKOMINO_TABLE,
)
