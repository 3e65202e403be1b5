"""/pickomino score: history, leaderboard, player and game, read from bot.storage.results.

`ScoreGroup` is an `app_commands.Group` named "score" that the /pickomino GroupCog
attaches as a subgroup (`cog.app_command.add_command(ScoreGroup())`). Its one
constructor parameter says where the results are read from; by default, the bot's
database (`interaction.client.db`) in one transaction, so a page is one snapshot.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import aiosqlite
import discord
from discord import app_commands

from bot.i18n import t
from bot.render.layout import MAX_DESCRIPTION, MAX_FIELD_VALUE
from bot.render.pickomino.embeds import COLOUR
from bot.stats import text
from bot.stats.models import HISTORY_PAGE_SIZE, Cursor, HistoryPage, Period, Ranking
from bot.storage import results
from cogs.pickomino._replies import tell

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
ConnectionProvider = Callable[[Interaction], AbstractAsyncContextManager[aiosqlite.Connection]]

PAGER_TIMEOUT = 300.0  # seconds a history pager answers its buttons
AUTOCOMPLETE_CHOICES = 25


def bot_database(interaction: Interaction) -> AbstractAsyncContextManager[aiosqlite.Connection]:
    """The bot's database (PickominoBot.db), in one transaction."""
    return interaction.client.db.transaction()


def name_resolver(guild: discord.Guild | None) -> text.NameOf:
    """Names as the score commands show them: the member's current display name when
    cached, else the name stored at game time (they may have left the server)."""

    def name_of(user_id: int, stored: str) -> str:
        member = guild.get_member(user_id) if guild is not None else None
        name = member.display_name if member is not None else stored
        return discord.utils.escape_markdown(name)

    return name_of


def guild_title(guild: discord.Guild | None) -> str:
    name = guild.name if guild is not None else None
    return discord.utils.escape_markdown(name) if name else t("score.this_server")


RANKING_CHOICES = [
    app_commands.Choice(name=text.ranking_name(ranking), value=ranking.value) for ranking in Ranking
]
PERIOD_CHOICES = [
    app_commands.Choice(name=text.period_name(period), value=period.value) for period in Period
]


@app_commands.guild_only()
class ScoreGroup(app_commands.Group, name="score", description=t("score.group.description")):
    """The score subgroup of /pickomino."""

    def __init__(self, connection: ConnectionProvider = bot_database) -> None:
        super().__init__()
        self.connection = connection

    async def on_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        log.error("/pickomino score failed for %s", interaction.id, exc_info=error)
        await tell(interaction, t("score.error"))

    # ------------------------------------------------------------------ history

    @app_commands.command(name="history", description=t("score.history.description"))
    @app_commands.describe(player=t("score.history.param.player"))
    async def history(self, interaction: Interaction, player: discord.User | None = None) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            await tell(interaction, t("score.guild_only"))
            return
        user_id = player.id if player is not None else None
        async with self.connection(interaction) as conn:
            page = await results.history_page(conn, guild_id, user_id=user_id)
        name_of = name_resolver(interaction.guild)
        if player is None:
            title = t("score.history.title.guild", guild=guild_title(interaction.guild))
        else:
            title = t("score.history.title.player", name=name_of(player.id, player.display_name))
        if not page.games:
            if player is None:
                await tell(interaction, t("score.history.empty.guild"))
            else:
                name = name_of(player.id, player.display_name)
                await tell(interaction, t("score.history.empty.player", name=name))
            return
        pager = HistoryPager(
            self.connection,
            owner_id=interaction.user.id,
            guild_id=guild_id,
            user_id=user_id,
            title=title,
            name_of=name_of,
            page=page,
        )
        await interaction.response.send_message(embed=pager.embed(), view=pager)
        pager.shown_by(interaction)

    # ------------------------------------------------------------------ leaderboard

    @app_commands.command(name="leaderboard", description=t("score.leaderboard.description"))
    @app_commands.describe(
        ranking=t("score.leaderboard.param.ranking"),
        period=t("score.leaderboard.param.period"),
    )
    @app_commands.choices(ranking=RANKING_CHOICES, period=PERIOD_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        ranking: str = Ranking.WINS.value,
        period: str = Period.ALL_TIME.value,
    ) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            await tell(interaction, t("score.guild_only"))
            return
        async with self.connection(interaction) as conn:
            board = await results.leaderboard(
                conn,
                guild_id,
                Ranking(ranking),
                Period(period),
                asker_id=interaction.user.id,
                now=int(time.time()),
            )
        if not board.top:
            await tell(interaction, text.leaderboard_empty(board))
            return
        name_of = name_resolver(interaction.guild)
        lines = text.leaderboard_lines(board, name_of)
        asker = text.leaderboard_asker_line(board, name_of)
        if asker is not None:
            lines += ["", asker]
        embed = discord.Embed(
            title=t(
                "score.leaderboard.title",
                ranking=text.ranking_name(board.ranking),
                period=text.period_name(board.period),
            ),
            description=text.fit_lines(lines, MAX_DESCRIPTION),
            colour=COLOUR,
        )
        embed.set_footer(text=t("score.leaderboard.footer"))
        await interaction.response.send_message(embed=embed)

    # ------------------------------------------------------------------ player

    @app_commands.command(name="player", description=t("score.player.description"))
    @app_commands.describe(player=t("score.player.param.player"))
    async def player(self, interaction: Interaction, player: discord.User | None = None) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            await tell(interaction, t("score.guild_only"))
            return
        target = player or interaction.user
        if target.bot:
            await tell(interaction, t("score.player.bot"))
            return
        async with self.connection(interaction) as conn:
            stats = await results.player_stats(conn, guild_id, target.id)
        name_of = name_resolver(interaction.guild)
        if stats is None:
            name = name_of(target.id, target.display_name)
            await tell(interaction, t("score.player.empty", name=name))
            return
        name = name_of(target.id, stats.name)
        if stats.games == 0:
            await tell(
                interaction,
                t("score.player.empty.unfinished", name=name, stored=stats.stored_games),
            )
            return
        embed = discord.Embed(
            title=t("score.player.title", name=name, guild=guild_title(interaction.guild)),
            colour=COLOUR,
        )
        embed.set_thumbnail(url=target.display_avatar.url)
        for field_name, value in text.player_fields(stats):
            embed.add_field(name=field_name, value=value, inline=True)
        embed.set_footer(text=t("score.player.footer", stored=stats.stored_games))
        await interaction.response.send_message(embed=embed)

    # ------------------------------------------------------------------ one game

    @app_commands.command(name="game", description=t("score.game.description"))
    @app_commands.rename(game_id="id")
    @app_commands.describe(game_id=t("score.game.param.id"))
    async def game(self, interaction: Interaction, game_id: app_commands.Range[int, 1]) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            await tell(interaction, t("score.guild_only"))
            return
        async with self.connection(interaction) as conn:
            story = await results.game_story(conn, guild_id, game_id)
        if story is None:
            await tell(interaction, t("score.game.not_found", game_id=game_id))
            return
        summary = story.summary
        name_of = name_resolver(interaction.guild)
        header = t(
            "score.game.header",
            channel_id=summary.channel_id,
            when=text.relative_time(summary.ended_at),
        )
        turns = text.story_lines(story, name_of) or [t("score.game.turns.none")]
        room = MAX_DESCRIPTION - len(header) - 2
        if summary.abandoned:
            title_key, standings_key = (
                "score.game.title.abandoned",
                "score.game.standings.abandoned",
            )
        else:
            title_key, standings_key = "score.game.title", "score.game.standings"
        embed = discord.Embed(
            title=t(title_key, game_id=summary.game_id),
            description=f"{header}\n\n{text.fit_lines(turns, room)}",
            colour=COLOUR,
        )
        embed.add_field(
            name=t(standings_key),
            value=text.fit_lines(text.standing_lines(summary, name_of), MAX_FIELD_VALUE),
            inline=False,
        )
        await interaction.response.send_message(embed=embed)

    @game.autocomplete("game_id")
    async def game_autocomplete(
        self, interaction: Interaction, current: int | str
    ) -> list[app_commands.Choice[int]]:
        """The server's latest games, filtered by the digits typed so far."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return []
        async with self.connection(interaction) as conn:
            page = await results.history_page(conn, guild_id, size=AUTOCOMPLETE_CHOICES * 4)
        typed = str(current or "").lstrip("#")
        choices = []
        for game in page.games:
            if typed and not str(game.game_id).startswith(typed):
                continue
            players = ", ".join(seat.name for seat in game.seats)
            label = t("score.game.autocomplete", game_id=game.game_id, players=players)
            choices.append(app_commands.Choice(name=label[:100], value=game.game_id))
        return choices[:AUTOCOMPLETE_CHOICES]


class HistoryPager(discord.ui.View):
    """Previous/Next over a history list; only the person who asked can turn pages."""

    def __init__(
        self,
        connection: ConnectionProvider,
        *,
        owner_id: int,
        guild_id: int,
        user_id: int | None,
        title: str,
        name_of: text.NameOf,
        page: HistoryPage,
    ) -> None:
        super().__init__(timeout=PAGER_TIMEOUT)
        self.connection = connection
        self.owner_id = owner_id
        self.guild_id = guild_id
        self.user_id = user_id
        self.title = title
        self.name_of = name_of
        self.page = page
        self.number = 1
        self._shown_by: Interaction | None = None
        self._update_buttons()

    def shown_by(self, interaction: Interaction) -> None:
        """Remember the command whose answer carries this view, to disable it on timeout."""
        self._shown_by = interaction

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.page.total / HISTORY_PAGE_SIZE))

    def embed(self) -> discord.Embed:
        lines = [text.history_line(game, self.name_of) for game in self.page.games]
        embed = discord.Embed(
            title=self.title,
            description=text.fit_lines(lines, MAX_DESCRIPTION, "score.history.skipped"),
            colour=COLOUR,
        )
        number = min(self.number, self.pages)
        embed.set_footer(
            text=t("score.history.footer", page=number, pages=self.pages, total=self.page.total)
        )
        return embed

    async def interaction_check(self, interaction: Interaction) -> bool:
        if interaction.user.id == self.owner_id:
            return True
        await interaction.response.send_message(t("score.pager.not_yours"), ephemeral=True)
        return False

    @discord.ui.button(label=t("score.pager.previous"), style=discord.ButtonStyle.secondary)
    async def previous(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        await self._turn(interaction, after=self.page.games[0].cursor)

    @discord.ui.button(label=t("score.pager.next"), style=discord.ButtonStyle.secondary)
    async def next(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        await self._turn(interaction, before=self.page.games[-1].cursor)

    async def _turn(
        self, interaction: Interaction, *, before: Cursor | None = None, after: Cursor | None = None
    ) -> None:
        async with self.connection(interaction) as conn:
            page = await results.history_page(
                conn, self.guild_id, user_id=self.user_id, before=before, after=after
            )
            restarted = not page.games  # the games around the cursor are gone
            if restarted:
                page = await results.history_page(conn, self.guild_id, user_id=self.user_id)
        if restarted or not page.has_newer:
            self.number = 1
        elif before is not None:
            self.number += 1
        else:
            self.number = max(1, self.number - 1)
        self.page = page
        self._update_buttons()
        await interaction.response.edit_message(embed=self.embed(), view=self)

    def _update_buttons(self) -> None:
        self.previous.disabled = not self.page.has_newer
        self.next.disabled = not self.page.has_older

    async def on_timeout(self) -> None:
        self.previous.disabled = True
        self.next.disabled = True
        if self._shown_by is None:
            return
        try:
            await self._shown_by.edit_original_response(view=self)
        except discord.HTTPException:
            log.info("could not disable the history pager of %s", self._shown_by.id)
