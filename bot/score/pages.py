"""The score pages of one game: what each command and pager click answers.

`ScorePages` reads only its game's rows, through a ResultStore, in one transaction of
the connection provider (by default the bot's database), so a page is one snapshot.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import discord
from discord import app_commands

from bot.history import rating_text, text
from bot.history.figures import HistoryFigures, NameOf
from bot.history.models import HistoryPage, Period, Ranking, Scope, Variants
from bot.history.store import ResultStore
from bot.i18n import t
from bot.score import embeds
from bot.score.names import community_of, name_resolver, place_title, reads_from, scope_of
from bot.score.pager import Pager, PageTurn
from bot.storage.protocols import Connection
from bot.ui.replies import tell
from bot.ui.reviews import Reviews, answer_review

Interaction = discord.Interaction[Any]
ConnectionProvider = Callable[[Interaction], AbstractAsyncContextManager[Connection]]

AUTOCOMPLETE_CHOICES = 25

# The words of each scope (bot.score.names.scope_of): a community's pages say "this
# server" or "this chat" (or its name); a person's own outside a server, "every server
# and chat". A community's whole history or a game is never read everywhere.
_PLACE_HISTORY_TITLE = {
    Scope.SERVER: "score.history.title.guild",
    Scope.CHAT: "score.history.title.guild.chat",
}
_PLAYER_HISTORY_TITLE = {
    Scope.SERVER: "score.history.title.player",
    Scope.CHAT: "score.history.title.player",
    Scope.EVERYWHERE: "score.history.title.player.everywhere",
}
_NO_HISTORY = {
    Scope.SERVER: "score.history.empty.guild",
    Scope.CHAT: "score.history.empty.guild.chat",
}
_NO_PLAYER_HISTORY = {
    Scope.SERVER: "score.history.empty.player",
    Scope.CHAT: "score.history.empty.player.chat",
    Scope.EVERYWHERE: "score.history.empty.player.everywhere",
}
_PLAYER_TITLE = {
    Scope.SERVER: "score.player.title",
    Scope.CHAT: "score.player.title.chat",
    Scope.EVERYWHERE: "score.player.title.everywhere",
}
_NO_RECORD = {
    Scope.SERVER: "score.player.empty",
    Scope.CHAT: "score.player.empty.chat",
    Scope.EVERYWHERE: "score.player.empty.everywhere",
}
_NO_FINISHED_GAME = {
    Scope.SERVER: "score.player.empty.unfinished",
    Scope.CHAT: "score.player.empty.unfinished.chat",
    Scope.EVERYWHERE: "score.player.empty.unfinished.everywhere",
}
_NO_SUCH_GAME = {
    Scope.SERVER: "score.game.not_found",
    Scope.CHAT: "score.game.not_found.chat",
}


class ScorePages:
    """The answers of one game's score commands."""

    def __init__(
        self,
        figures: HistoryFigures,
        store: ResultStore,
        connection: ConnectionProvider,
        pager: Pager,
        reviews: Reviews | None = None,
    ) -> None:
        self.figures = figures
        self.reviews = reviews  # finished games' reviews (`score game ... review`)
        self.pager = pager
        self.kind = figures.kind
        self.command = figures.command
        self.store = store
        self.connection = connection

    # ------------------------------------------------------------------ history

    async def history(self, interaction: Interaction, player: discord.User | None) -> None:
        user_id = player.id if player is not None else None
        scope = scope_of(interaction, user_id)
        async with self.connection(interaction) as conn:
            page = await self.store.history_page(
                conn, self.kind, reads_from(interaction, scope), user_id=user_id
            )
        name_of = name_resolver(interaction.guild)
        if not page.games:
            await tell(interaction, self._empty_history(scope, user_id, player, name_of))
            return
        if player is None:
            title = t(_PLACE_HISTORY_TITLE[scope], guild=place_title(interaction))
        else:
            name = name_of(player.id, player.display_name)
            title = t(_PLAYER_HISTORY_TITLE[scope], name=name)
        await interaction.response.send_message(
            embed=embeds.history_embed(title, page, 1, self.figures, name_of),
            view=embeds.pager_view(self.pager, self.kind, interaction.user.id, user_id, page, 1),
        )

    async def turn_page(self, interaction: Interaction, turn: PageTurn) -> None:
        """Show the page a pager button leads to, in place of the clicked one."""
        scope = scope_of(interaction, turn.player_id)
        guild_id = reads_from(interaction, scope)
        async with self.connection(interaction) as conn:
            page = await self.store.history_page(
                conn,
                self.kind,
                guild_id,
                user_id=turn.player_id,
                before=turn.before,
                after=turn.after,
            )
            restarted = not page.games  # the games around the cursor are gone
            if restarted:
                page = await self.store.history_page(
                    conn, self.kind, guild_id, user_id=turn.player_id
                )
        name_of = name_resolver(interaction.guild)
        if not page.games:
            await tell(interaction, self._empty_history(scope, turn.player_id, None, name_of))
            return
        number = 1 if restarted or not page.has_newer else turn.page
        title = _shown_title(interaction, scope, turn, page, name_of)
        await interaction.response.edit_message(
            embed=embeds.history_embed(title, page, number, self.figures, name_of),
            view=embeds.pager_view(
                self.pager, self.kind, turn.asker_id, turn.player_id, page, number
            ),
        )

    def _empty_history(
        self, scope: Scope, user_id: int | None, player: discord.User | None, name_of: NameOf
    ) -> str:
        if user_id is None:
            return t(_NO_HISTORY[scope], command=self.command)
        stored = player.display_name if player is not None else f"<@{user_id}>"
        name = name_of(user_id, stored)
        return t(_NO_PLAYER_HISTORY[scope], name=name, command=self.command)

    # ------------------------------------------------------------------ leaderboard

    async def leaderboard(
        self,
        interaction: Interaction,
        ranking: Ranking,
        period: Period,
        variants: Variants = Variants.ALL,
    ) -> None:
        variant = self.figures.variant
        async with self.connection(interaction) as conn:
            board = await self.store.leaderboard(
                conn,
                self.kind,
                community_of(interaction),
                ranking,
                period,
                asker_id=interaction.user.id,
                now=int(time.time()),
                variant=variant.key if variant is not None else None,
                variants=variants,
            )
        if not board.top:
            scope = scope_of(interaction, None)
            await tell(interaction, text.leaderboard_empty(board, self.figures, scope))
            return
        name_of = name_resolver(interaction.guild)
        embed = embeds.leaderboard_embed(board, self.figures, name_of)
        await interaction.response.send_message(embed=embed)

    async def rating_board(self, interaction: Interaction, period: Period) -> None:
        """The rating leaderboard: every game of the kind counts, its variants included
        (one rated game), so the variants filter does not apply."""
        async with self.connection(interaction) as conn:
            board = await self.store.rating_board(
                conn,
                self.kind,
                community_of(interaction),
                period,
                asker_id=interaction.user.id,
                now=int(time.time()),
            )
        if not board.top:
            scope = scope_of(interaction, None)
            await tell(interaction, rating_text.rating_empty(board, scope))
            return
        name_of = name_resolver(interaction.guild)
        embed = embeds.rating_embed(board, self.figures, name_of)
        await interaction.response.send_message(embed=embed)

    # ------------------------------------------------------------------ one player

    async def player(self, interaction: Interaction, player: discord.User | None) -> None:
        target = player or interaction.user
        if target.bot:
            await tell(interaction, t("score.player.bot"))
            return
        scope = scope_of(interaction, target.id)
        community = reads_from(interaction, scope)
        async with self.connection(interaction) as conn:
            stats = await self.store.player_stats(
                conn,
                self.kind,
                community,
                target.id,
                variant=self.figures.variant.key if self.figures.variant else None,
            )
            # A rating is a community's: a card of every community shows none.
            rating = None
            if community is not None:
                rating = await self.store.player_rating(conn, self.kind, community, target.id)
        name_of = name_resolver(interaction.guild)
        if stats is None:
            name = name_of(target.id, target.display_name)
            await tell(interaction, t(_NO_RECORD[scope], name=name, command=self.command))
            return
        name = name_of(target.id, stats.name)
        if stats.games == 0:
            unfinished = t(_NO_FINISHED_GAME[scope], name=name, count=stats.stored_games)
            await tell(interaction, unfinished)
            return
        title = t(_PLAYER_TITLE[scope], name=name, guild=place_title(interaction))
        avatar = target.display_avatar.url
        embed = embeds.player_embed(stats, self.figures, title, avatar, scope, rating)
        await interaction.response.send_message(embed=embed)

    # ------------------------------------------------------------------ one game

    async def game(self, interaction: Interaction, game_id: int) -> None:
        # Outside a server one's own history lists one's games of every community.
        own = interaction.user.id if interaction.guild_id is None else None
        async with self.connection(interaction) as conn:
            story = await self.store.game_story(
                conn, self.kind, community_of(interaction), game_id, player_id=own
            )
        if story is None:
            not_found = _NO_SUCH_GAME[scope_of(interaction, None)]
            await tell(interaction, t(not_found, game_id=game_id, command=self.command))
            return
        name_of = name_resolver(interaction.guild)
        await interaction.response.send_message(
            embed=embeds.game_embed(story, self.figures, name_of)
        )

    async def review(self, interaction: Interaction, game_id: int) -> None:
        """The game's review (as the end screen's Review shows it), ephemerally; a game of
        another community, abandoned or from before reviews were kept gets a clear no."""
        if self.reviews is None:
            await tell(interaction, t("review.missing.unknown", game_id=game_id))
            return
        await answer_review(
            interaction, self.reviews, self.kind, community_of(interaction), game_id
        )

    async def game_choices(
        self, interaction: Interaction, current: int | str
    ) -> list[app_commands.Choice[int]]:
        """The community's latest games, filtered by the digits typed so far."""
        async with self.connection(interaction) as conn:
            page = await self.store.history_page(
                conn, self.kind, community_of(interaction), size=AUTOCOMPLETE_CHOICES * 4
            )
        typed = str(current or "").lstrip("#")
        choices = []
        for game in page.games:
            if typed and not str(game.game_id).startswith(typed):
                continue
            players = ", ".join(seat.name for seat in game.seats)
            label = t("score.game.autocomplete", game_id=game.game_id, players=players)
            choices.append(app_commands.Choice(name=label[:100], value=game.game_id))
        return choices[:AUTOCOMPLETE_CHOICES]


def _shown_title(
    interaction: Interaction, scope: Scope, turn: PageTurn, page: HistoryPage, name_of: NameOf
) -> str:
    """The title the clicked message shows (it does not change from page to page), or,
    if it has none, the title again from the place and the name stored with the games."""
    message = interaction.message
    if message is not None and message.embeds and message.embeds[0].title:
        return message.embeds[0].title
    if turn.player_id is None:
        return t(_PLACE_HISTORY_TITLE[scope], guild=place_title(interaction))
    stored = next(
        (s.name for game in page.games for s in game.seats if s.user_id == turn.player_id),
        str(turn.player_id),
    )
    return t(_PLAYER_HISTORY_TITLE[scope], name=name_of(turn.player_id, stored))
