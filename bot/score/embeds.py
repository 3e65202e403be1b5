"""The embeds of the score pages, from the rows a ResultStore returns."""

from __future__ import annotations

import math

import discord

from bot.history import rating_text, text
from bot.history.figures import HistoryFigures, NameOf
from bot.history.models import (
    HISTORY_PAGE_SIZE,
    GameStory,
    HistoryPage,
    Leaderboard,
    PlayerStats,
    Scope,
)
from bot.history.rating_sql import PlayerRating, RatingBoard
from bot.i18n import t
from bot.render.layout import MAX_DESCRIPTION, MAX_FIELD_VALUE
from bot.score.pager import Direction, Pager, PageTurn


def history_embed(
    title: str, page: HistoryPage, number: int, figures: HistoryFigures, name_of: NameOf
) -> discord.Embed:
    lines = [text.history_line(game, figures, name_of) for game in page.games]
    embed = discord.Embed(
        title=title,
        description=text.fit_lines(lines, MAX_DESCRIPTION, "score.history.skipped"),
        colour=figures.colour,
    )
    pages = max(1, math.ceil(page.total / HISTORY_PAGE_SIZE))
    footer = t(
        "score.history.footer",
        page=min(number, pages),
        pages=pages,
        games=text.games(page.total),
        command=figures.command,
    )
    embed.set_footer(text=footer)
    return embed


def pager_view(
    pager: Pager, kind: str, asker_id: int, player_id: int | None, page: HistoryPage, number: int
) -> discord.ui.View:
    """Previous and Next for page `number` of a list with games; the edges disabled."""
    if not page.games:
        raise ValueError("an empty history has no pages to turn")
    view = discord.ui.View(timeout=None)  # nothing to keep: the buttons carry it all
    newer = PageTurn(
        asker_id, player_id, Direction.PREVIOUS, max(1, number - 1), page.games[0].cursor, kind
    )
    older = PageTurn(asker_id, player_id, Direction.NEXT, number + 1, page.games[-1].cursor, kind)
    view.add_item(pager.button(newer, disabled=not page.has_newer))
    view.add_item(pager.button(older, disabled=not page.has_older))
    return view


def leaderboard_embed(
    board: Leaderboard, figures: HistoryFigures, name_of: NameOf
) -> discord.Embed:
    lines = text.leaderboard_lines(board, figures, name_of)
    asker = text.leaderboard_asker_line(board, figures, name_of)
    if asker is not None:
        lines += ["", asker]
    embed = discord.Embed(
        title=text.leaderboard_title(board, figures),
        description=text.fit_lines(lines, MAX_DESCRIPTION),
        colour=figures.colour,
    )
    embed.set_footer(text=t("score.leaderboard.footer"))
    return embed


def rating_embed(board: RatingBoard, figures: HistoryFigures, name_of: NameOf) -> discord.Embed:
    """The rating leaderboard: the top, the asker's own rank, each computer level."""
    lines = rating_text.rating_lines(board, name_of)
    asker = rating_text.rating_asker_line(board, name_of)
    if asker is not None:
        lines += ["", asker]
    computers = rating_text.computers_line(board)
    if computers is not None:
        lines += ["", computers]
    embed = discord.Embed(
        title=rating_text.rating_title(board),
        description=text.fit_lines(lines, MAX_DESCRIPTION),
        colour=figures.colour,
    )
    embed.set_footer(text=t("score.rating.footer", minimum=text.games(board.min_games)))
    return embed


_PLAYER_FOOTER = {
    Scope.SERVER: "score.player.footer",
    Scope.CHAT: "score.player.footer.chat",
    Scope.EVERYWHERE: "score.player.footer.everywhere",
}


def player_embed(
    stats: PlayerStats,
    figures: HistoryFigures,
    title: str,
    avatar: str,
    scope: Scope = Scope.SERVER,
    rating: PlayerRating | None = None,
) -> discord.Embed:
    embed = discord.Embed(title=title, colour=figures.colour)
    embed.set_thumbnail(url=avatar)
    if rating is not None:  # first, across the card: what a glance looks for
        field_name, value = rating_text.player_rating_field(rating)
        embed.add_field(name=field_name, value=value, inline=False)
    for field_name, value in text.player_fields(stats, figures):
        embed.add_field(name=field_name, value=value, inline=True)
    embed.set_footer(text=t(_PLAYER_FOOTER[scope], count=stats.stored_games))
    return embed


def game_embed(story: GameStory, figures: HistoryFigures, name_of: NameOf) -> discord.Embed:
    summary = story.summary
    header = t(
        "score.game.header",
        channel_id=summary.channel_id,
        when=text.relative_time(summary.ended_at),
    )
    lines = text.story_lines(story, figures, name_of) or [t("score.game.turns.none")]
    room = MAX_DESCRIPTION - len(header) - 2
    if summary.abandoned:
        title_key, standings_key = "score.game.title.abandoned", "score.game.standings.abandoned"
    else:
        title_key, standings_key = "score.game.title", "score.game.standings"
    title = t(title_key, game_id=summary.game_id)
    variant = text.played_variant(summary, figures)
    if variant is not None:
        title = t("score.game.title.variant", title=title, variant=t(variant.name))
    embed = discord.Embed(
        title=title,
        description=f"{header}\n\n{text.fit_lines(lines, room)}",
        colour=figures.colour,
    )
    embed.add_field(
        name=t(standings_key),
        value=text.fit_lines(text.standing_lines(summary, figures, name_of), MAX_FIELD_VALUE),
        inline=False,
    )
    legend = figures.story_legend() if story.lines else None
    if legend:
        embed.set_footer(text=legend)
    return embed
