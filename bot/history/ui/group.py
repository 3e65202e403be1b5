"""`score_group(figures)`: the `score` subcommand group of one game's slash command.

history, leaderboard, player and game, each reading only that game's rows. A game's
GroupCog attaches it (`cog.app_command.add_command(score_group(FIGURES))`) and its
extension registers `bot.history.ui.DYNAMIC_ITEMS` for the pager.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.history import text
from bot.history.figures import HistoryFigures
from bot.history.models import Period, Ranking
from bot.history.ui import pager
from bot.history.ui.pages import ConnectionProvider, ScorePages, bot_database
from bot.i18n import t
from bot.storage.protocols import ResultStore
from bot.storage.results import SqliteResultStore
from bot.ui.replies import fail, tell

Interaction = discord.Interaction[Any]
_PERIODS = frozenset(period.value for period in Period)


def score_group(
    figures: HistoryFigures,
    store: ResultStore | None = None,
    connection: ConnectionProvider = bot_database,
) -> app_commands.Group:
    """The score group of the game `figures` describes, reading through `store` (by
    default the SQLite one) in transactions of `connection` (by default the bot's)."""
    pages = ScorePages(figures, store or SqliteResultStore(), connection)
    pager.register(figures.kind, pages)
    group = app_commands.Group(
        name="score", description=t("score.group.description"), guild_only=True
    )
    rankings = {text.ranking_value(ranking, figures): ranking for ranking in Ranking}
    ranking_choices = [
        app_commands.Choice(name=text.ranking_name(ranking, figures), value=value)
        for value, ranking in rankings.items()
    ]
    period_choices = [
        app_commands.Choice(name=text.period_name(period), value=period.value) for period in Period
    ]

    @group.error
    async def on_error(interaction: Interaction, error: app_commands.AppCommandError) -> None:
        await fail(interaction, error)

    @group.command(name="history", description=t("score.history.description"))
    @app_commands.describe(player=t("score.history.param.player"))
    async def history(interaction: Interaction, player: discord.User | None = None) -> None:
        await pages.history(interaction, player)

    @group.command(name="leaderboard", description=t("score.leaderboard.description"))
    @app_commands.describe(
        ranking=t("score.leaderboard.param.ranking"),
        period=t("score.leaderboard.param.period"),
    )
    @app_commands.choices(ranking=ranking_choices, period=period_choices)
    async def leaderboard(
        interaction: Interaction,
        ranking: str = Ranking.WINS.value,
        period: str = Period.ALL_TIME.value,
    ) -> None:
        if ranking not in rankings or period not in _PERIODS:
            await tell(interaction, t("score.leaderboard.unknown"))
            return
        await pages.leaderboard(interaction, rankings[ranking], Period(period))

    @group.command(name="player", description=t("score.player.description"))
    @app_commands.describe(player=t("score.player.param.player"))
    async def player(interaction: Interaction, player: discord.User | None = None) -> None:
        await pages.player(interaction, player)

    @group.command(name="game", description=t("score.game.description"))
    @app_commands.rename(game_id="id")
    @app_commands.describe(game_id=t("score.game.param.id"))
    async def game(interaction: Interaction, game_id: app_commands.Range[int, 1]) -> None:
        await pages.game(interaction, game_id)

    @game.autocomplete("game_id")
    async def game_autocomplete(
        interaction: Interaction, current: int | str
    ) -> list[app_commands.Choice[int]]:
        return await pages.game_choices(interaction, current)

    return group
