"""The score pages of any game, written once, above the Discord layer (bot.ui) and
history (bot.history): `score_groups` builds each served game's `score` group and the
one pager that serves their Previous and Next buttons."""

from __future__ import annotations

from bot.history.store import ResultStore
from bot.plugin import Games
from bot.score.group import score_group
from bot.score.pager import Pager, PagerIds
from bot.score.pages import ConnectionProvider, ScorePages
from bot.ui.reviews import Reviews

__all__ = ["Pager", "ScorePages", "score_group", "score_groups"]


def score_groups(
    games: Games,
    store: ResultStore,
    connection: ConnectionProvider,
    reviews: Reviews | None = None,
) -> tuple[Pager, dict[str, ScorePages]]:
    """Each game's score pages (by kind), reading through `store` in transactions of
    `connection`, and the pager that turns their pages (register `pager.item`)."""
    pager = Pager(PagerIds(games.pager_prefixes()))
    pages: dict[str, ScorePages] = {}
    for game in games:
        pages[game.kind] = ScorePages(game.history, store, connection, pager, reviews)
        pager.serve(game.kind, pages[game.kind])
    return pager, pages
