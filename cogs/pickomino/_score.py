"""/pickomino score: history, leaderboard, player and game, read from bot.storage.results.

`ScoreGroup` is an `app_commands.Group` named "score" that the /pickomino GroupCog
attaches as a subgroup (`cog.app_command.add_command(ScoreGroup())`). Its one
constructor parameter says where the commands read the results from; by default, the
bot's database (`interaction.client.db`) in one transaction, so a page is one snapshot.

The history pager's Previous/Next are `HistoryPageButton`s (`DYNAMIC_ITEMS`, registered
by the extension's setup): their custom_ids carry everything a click needs, and a click
always reads the bot's database, so they keep working after a restart.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import aiosqlite
import discord
from discord import app_commands

from bot.games.pickomino.render.embeds import COLOUR
from bot.i18n import t
from bot.render.layout import MAX_DESCRIPTION, MAX_FIELD_VALUE
from bot.stats import text
from bot.stats.models import HISTORY_PAGE_SIZE, Cursor, HistoryPage, Period, Ranking
from bot.storage import results
from bot.ui.replies import tell
from bot.ui.translator import use_interaction_locale

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
ConnectionProvider = Callable[[Interaction], AbstractAsyncContextManager[aiosqlite.Connection]]

AUTOCOMPLETE_CHOICES = 25


def bot_database(interaction: Interaction) -> AbstractAsyncContextManager[aiosqlite.Connection]:
    """The bot's database (DiceBot.db), in one transaction."""
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
        await interaction.response.send_message(
            embed=history_embed(title, page, 1, name_of),
            view=pager_view(interaction.user.id, user_id, page, 1),
        )

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


# ---------------------------------------------------------------------- the history pager
#
# The pager keeps nothing in memory: each button's custom_id carries who may press it,
# whose history it pages, which way, the page it leads to and the keyset cursor, so
# any process serves the click from the database, after any restart.


class Direction(StrEnum):
    NEXT = "n"  # older games
    PREVIOUS = "p"  # newer games


PAGER_PREFIX = "pks:h"
PAGER_TEMPLATE = (
    rf"{PAGER_PREFIX}:(?P<asker>[0-9]+):(?P<player>[0-9]+):(?P<direction>[np])"
    r":(?P<page>[0-9]+):(?P<ended_at>[0-9a-z]+)\.(?P<game_id>[0-9a-z]+)"
)
MAX_CUSTOM_ID = 100  # Discord's limit
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def base36(number: int) -> str:
    """The shortest spelling `int(text, 36)` reads back: cursors stay short in custom_ids."""
    if number < 0:
        raise ValueError(f"no base-36 spelling for a negative number: {number}")
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = _BASE36[digit] + digits
        if number == 0:
            return digits


@dataclass(frozen=True, slots=True)
class PageTurn:
    """What a pager button does: `pks:h:<asker>:<player or 0>:<n|p>:<page>:<cursor>`,
    the cursor being the game's `ended_at` and `game_id` in base 36."""

    asker_id: int
    player_id: int | None  # None: the whole server's history
    direction: Direction
    page: int  # the number of the page the click leads to, for the footer
    cursor: Cursor

    def encode(self) -> str:
        cursor = f"{base36(self.cursor.ended_at)}.{base36(self.cursor.game_id)}"
        custom_id = (
            f"{PAGER_PREFIX}:{self.asker_id}:{self.player_id or 0}:{self.direction}"
            f":{self.page}:{cursor}"
        )
        if len(custom_id) > MAX_CUSTOM_ID:
            raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID}: {custom_id!r}")
        return custom_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> PageTurn:
        return cls(
            asker_id=int(match["asker"]),
            player_id=int(match["player"]) or None,
            direction=Direction(match["direction"]),
            page=max(1, int(match["page"])),
            cursor=Cursor(int(match["ended_at"], 36), int(match["game_id"], 36)),
        )

    @property
    def before(self) -> Cursor | None:
        """`history_page`'s `before` (Next pages to older games)."""
        return self.cursor if self.direction is Direction.NEXT else None

    @property
    def after(self) -> Cursor | None:
        """`history_page`'s `after` (Previous pages to newer games)."""
        return self.cursor if self.direction is Direction.PREVIOUS else None


class HistoryPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGER_TEMPLATE):
    """Previous or Next under a history list; only the person who asked can turn pages."""

    def __init__(self, turn: PageTurn, *, disabled: bool = False) -> None:
        label = "score.pager.next" if turn.direction is Direction.NEXT else "score.pager.previous"
        super().__init__(
            discord.ui.Button(
                label=t(label),
                style=discord.ButtonStyle.secondary,
                custom_id=turn.encode(),
                disabled=disabled,
            )
        )
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HistoryPageButton:
        return cls(PageTurn.from_match(match))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        if interaction.user.id == self.turn.asker_id:
            return True
        await tell(interaction, t("score.pager.not_yours"))
        return False

    async def callback(self, interaction: Interaction) -> None:
        use_interaction_locale(interaction)
        try:
            await turn_page(interaction, self.turn)
        except Exception as error:
            log.error("history pager click %s failed", interaction.id, exc_info=error)
            try:
                await tell(interaction, t("score.error"))
            except discord.HTTPException:
                log.warning("could not tell the user about the failure of %s", interaction.id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (HistoryPageButton,)


def history_embed(
    title: str, page: HistoryPage, number: int, name_of: text.NameOf
) -> discord.Embed:
    lines = [text.history_line(game, name_of) for game in page.games]
    embed = discord.Embed(
        title=title,
        description=text.fit_lines(lines, MAX_DESCRIPTION, "score.history.skipped"),
        colour=COLOUR,
    )
    pages = max(1, math.ceil(page.total / HISTORY_PAGE_SIZE))
    embed.set_footer(
        text=t("score.history.footer", page=min(number, pages), pages=pages, total=page.total)
    )
    return embed


def pager_view(
    asker_id: int, player_id: int | None, page: HistoryPage, number: int
) -> discord.ui.View:
    """Previous and Next for page `number` of a list with games; the edges disabled."""
    if not page.games:
        raise ValueError("an empty history has no pages to turn")
    view = discord.ui.View(timeout=None)  # nothing to keep: the buttons carry it all
    newer = PageTurn(
        asker_id, player_id, Direction.PREVIOUS, max(1, number - 1), page.games[0].cursor
    )
    older = PageTurn(asker_id, player_id, Direction.NEXT, number + 1, page.games[-1].cursor)
    view.add_item(HistoryPageButton(newer, disabled=not page.has_newer))
    view.add_item(HistoryPageButton(older, disabled=not page.has_older))
    return view


async def turn_page(interaction: Interaction, turn: PageTurn) -> None:
    """Show the page a pager button leads to, in place of the clicked one."""
    guild_id = interaction.guild_id
    if guild_id is None:
        await tell(interaction, t("score.guild_only"))
        return
    async with bot_database(interaction) as conn:
        page = await results.history_page(
            conn, guild_id, user_id=turn.player_id, before=turn.before, after=turn.after
        )
        restarted = not page.games  # the games around the cursor are gone
        if restarted:
            page = await results.history_page(conn, guild_id, user_id=turn.player_id)
    name_of = name_resolver(interaction.guild)
    if not page.games:
        await tell(interaction, empty_history(turn.player_id, name_of))
        return
    number = 1 if restarted or not page.has_newer else turn.page
    embed = history_embed(shown_title(interaction, turn, page, name_of), page, number, name_of)
    view = pager_view(turn.asker_id, turn.player_id, page, number)
    await interaction.response.edit_message(embed=embed, view=view)


def shown_title(
    interaction: Interaction, turn: PageTurn, page: HistoryPage, name_of: text.NameOf
) -> str:
    """The title the clicked message shows (it does not change from page to page), or,
    if it has none, the title again from the guild and the name stored with the games."""
    message = interaction.message
    if message is not None and message.embeds and message.embeds[0].title:
        return message.embeds[0].title
    if turn.player_id is None:
        return t("score.history.title.guild", guild=guild_title(interaction.guild))
    stored = next(
        (s.name for game in page.games for s in game.seats if s.user_id == turn.player_id),
        str(turn.player_id),
    )
    return t("score.history.title.player", name=name_of(turn.player_id, stored))


def empty_history(player_id: int | None, name_of: text.NameOf) -> str:
    if player_id is None:
        return t("score.history.empty.guild")
    return t("score.history.empty.player", name=name_of(player_id, f"<@{player_id}>"))
