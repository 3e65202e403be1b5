"""The score pages of any game, written once: a game's GroupCog attaches
`score_group(figures)` (history, leaderboard, player, game), and the extension
registers `DYNAMIC_ITEMS` (the history pager) with the bot."""

from bot.history.ui.group import score_group
from bot.history.ui.pager import DYNAMIC_ITEMS, HistoryPageButton

__all__ = ["DYNAMIC_ITEMS", "HistoryPageButton", "score_group"]
