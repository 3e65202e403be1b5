"""The emoji pictures messages use: the application's own emojis once synced, else Unicode.

The bot fills the book in the background at start-up (bot.app.emoji_sync); until
then, and whenever the sync fails, every `show` gives its fallback, so drawing a message
never waits for or depends on Discord's emoji routes.
"""

from __future__ import annotations

import json

from bot.pictures.emojis import EmojiBook
from bot.render.plain_text import is_plain

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


def forget_all() -> None:
    """Discord refused one of the emojis (deleted in the portal, or another application's
    ids in a reused database): Unicode everywhere until a new sync installs a book."""
    global _book, _remembered
    _book = None
    _remembered = {}


def stored_markup(markup: dict[str, str], application_id: int | None) -> str:
    """The markup of a sync as the bot stores it: tied to the application whose emojis
    they are (an application can only use its own)."""
    return json.dumps({"application_id": str(application_id), "markup": markup}, sort_keys=True)


def markup_from_store(text: str | None, application_id: int | None) -> dict[str, str]:
    """The stored markup if it is this application's, else none (a database reused by
    another application, or stored before the markup named its application)."""
    try:
        stored = json.loads(text) if text else {}
    except ValueError:
        return {}
    if not isinstance(stored, dict) or stored.get("application_id") != str(application_id):
        return {}
    markup = stored.get("markup")
    return {str(k): str(v) for k, v in markup.items()} if isinstance(markup, dict) else {}


def show(name: str, fallback: str) -> str:
    """`<:name:id>` when the application has the emoji, else `fallback` (and always on a
    page: bot.render.plain_text)."""
    if is_plain():
        return fallback
    if _book is None or name not in _book.names:
        return _remembered.get(name, fallback)
    return _book.show(name, fallback)
