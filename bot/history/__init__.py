"""Game history for every game: results, statistics, leaderboards and the score pages.

Names no game. A game meets history through its `HistoryFigures` (figures.py): it builds
its `GameResult` from its events, says what its score and figures are called, and words
the lines of its story. Storage is behind `bot.storage.protocols.ResultStore`.
"""
