"""The emoji pictures messages use: the application's own emojis once synced, else Unicode.

The client fills the book in the background at start-up (bot.client.DiceBot); until
then, and whenever the sync fails, every `show` gives its fallback, so drawing a message
never waits for or depends on Discord's emoji routes.
"""

from __future__ import annotations

from bot.pictures.emojis import EmojiBook

_book: EmojiBook | None = None
# The markup of the last sync, stored with the bot: a restart draws with it at once,
# while the new sync runs (a message drawn before and after a restart stays the same).
_remembered: dict[str, str] = {}


def use_book(book: EmojiBook | None) -> None:
    """Draw with `book` from now on (None: Unicode only, as in tests)."""
    global _book
    _book = book


def remember(markup: dict[str, str]) -> None:
    """Draw with the markup a previous sync stored, until a book is in use."""
    global _remembered
    _remembered = dict(markup)


def show(name: str, fallback: str) -> str:
    """`<:name:id>` when the application has the emoji, else `fallback`."""
    if _book is None or name not in _book.names:
        return _remembered.get(name, fallback)
    return _book.show(name, fallback)
