"""`score_group(pages)`: the `score` subcommand group of one game's slash command.

history, leaderboard, player and game, each reading only that game's rows through its
`ScorePages`. The client attaches it to the game's group (bot.score.score_groups).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.history import text
from bot.history.figures import HistoryFigures
from bot.history.models import Period, Ranking, Variants
from bot.history.rating_text import RATING_RANKING
from bot.i18n import t
from bot.score.pages import ScorePages
from bot.ui.replies import answer_error, tell
from bot.ui.translator import command_text

Interaction = discord.Interaction[Any]
_PERIODS = frozenset(period.value for period in Period)
_VARIANTS = frozenset([None, *(variants.value for variants in Variants)])


def score_group(pages: ScorePages) -> app_commands.Group:
    """The score group of the game whose score pages are `pages`."""
    figures = pages.figures
    group = app_commands.Group(
        name=command_text("command.name.score"),
        description=command_text("score.group.description"),
    )
    rankings = {text.ranking_value(ranking, figures): ranking for ranking in Ranking}
    ranking_choices = [
        app_commands.Choice(name=command_text(text.ranking_key(ranking, figures)), value=value)
        for value, ranking in rankings.items()
    ]
    ranking_choices.append(
        app_commands.Choice(name=command_text("score.ranking.rating"), value=RATING_RANKING)
    )
    period_choices = [
        app_commands.Choice(name=command_text(text.period_key(period)), value=period.value)
        for period in Period
    ]

    @group.error
    async def on_error(interaction: Interaction, error: app_commands.AppCommandError) -> None:
        await answer_error(interaction, error)

    @group.command(
        name=command_text("command.name.history"),
        description=command_text("score.history.description"),
    )
    @app_commands.rename(player=command_text("command.option.player"))
    @app_commands.describe(player=command_text("score.history.param.player"))
    async def history(interaction: Interaction, player: discord.User | None = None) -> None:
        await pages.history(interaction, player)

    async def show_leaderboard(
        interaction: Interaction, ranking: str, period: str, variants: str | None
    ) -> None:
        known = ranking in rankings or ranking == RATING_RANKING
        if not known or period not in _PERIODS or variants not in _VARIANTS:
            await tell(interaction, t("score.leaderboard.unknown"))
            return
        if ranking == RATING_RANKING:  # one rating covers the game's variants too
            await pages.rating_board(interaction, Period(period))
            return
        ranked = rankings[ranking]
        chosen = Variants(variants) if variants else default_variants(ranked, figures)
        await pages.leaderboard(interaction, ranked, Period(period), chosen)

    leaderboard_name = command_text("command.name.leaderboard")
    leaderboard_description = command_text("score.leaderboard.description")
    renamed = {
        "ranking": command_text("command.option.ranking"),
        "period": command_text("command.option.period"),
    }
    described = {
        "ranking": command_text("score.leaderboard.param.ranking"),
        "period": command_text("score.leaderboard.param.period"),
    }
    variant = figures.variant
    if variant is None:

        @group.command(name=leaderboard_name, description=leaderboard_description)
        @app_commands.rename(**renamed)
        @app_commands.describe(**described)
        @app_commands.choices(ranking=ranking_choices, period=period_choices)
        async def leaderboard(
            interaction: Interaction,
            ranking: str = Ranking.WINS.value,
            period: str = Period.ALL_TIME.value,
        ) -> None:
            await show_leaderboard(interaction, ranking, period, None)

    else:
        variant_choices = [
            app_commands.Choice(name=command_text(key), value=value.value)
            for value, key in (
                (Variants.ALL, "score.variants.all"),
                (Variants.ONLY, variant.only),
                (Variants.WITHOUT, variant.without),
            )
        ]

        @group.command(name=leaderboard_name, description=leaderboard_description)
        @app_commands.rename(**renamed, variants=command_text(variant.option_name))
        @app_commands.describe(**described, variants=command_text(variant.describe))
        @app_commands.choices(
            ranking=ranking_choices, period=period_choices, variants=variant_choices
        )
        async def leaderboard_of_variants(
            interaction: Interaction,
            ranking: str = Ranking.WINS.value,
            period: str = Period.ALL_TIME.value,
            variants: str | None = None,
        ) -> None:
            await show_leaderboard(interaction, ranking, period, variants)

    @group.command(
        name=command_text("command.name.player"),
        description=command_text("score.player.description"),
    )
    @app_commands.rename(player=command_text("command.option.player"))
    @app_commands.describe(player=command_text("score.player.param.player"))
    async def player(interaction: Interaction, player: discord.User | None = None) -> None:
        await pages.player(interaction, player)

    @group.command(
        name=command_text("command.name.game"), description=command_text("score.game.description")
    )
    @app_commands.rename(
        game_id=command_text("command.option.id"), review=command_text("command.option.review")
    )
    @app_commands.describe(
        game_id=command_text("score.game.param.id"),
        review=command_text("score.game.param.review"),
    )
    async def game(
        interaction: Interaction, game_id: app_commands.Range[int, 1], review: bool = False
    ) -> None:
        if review:
            await pages.review(interaction, game_id)
            return
        await pages.game(interaction, game_id)

    @game.autocomplete("game_id")
    async def game_autocomplete(
        interaction: Interaction, current: int | str
    ) -> list[app_commands.Choice[int]]:
        return await pages.game_choices(interaction, current)

    return group


def default_variants(ranking: Ranking, figures: HistoryFigures) -> Variants:
    """Games of every kind count, but an average score leaves out a variant whose scores
    run higher (Extrawurm's Bratwurms): mixed, the board would rank who played it."""
    variant = figures.variant
    if ranking is Ranking.AVERAGE_SCORE and variant is not None and variant.scores_apart:
        return Variants.WITHOUT
    return Variants.ALL
