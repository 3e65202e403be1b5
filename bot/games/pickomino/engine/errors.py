"""Domain exceptions. An illegal action carries an i18n key and its parameters, so the
player reads the reason in their own language (`pickomino.illegal.*` in
bot/i18n/<lang>/pickomino.json); the engine itself holds no words."""

from __future__ import annotations


class PickominoError(Exception):
    """Base of every error the engine raises."""


class IllegalAction(PickominoError):
    """The action is not allowed now; the game is left exactly as it was.

    `key` is a `pickomino.illegal.*` string of the catalog, `params` fill its placeholders.
    """

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        details = ", ".join(f"{name}={value}" for name, value in self.params.items())
        return f"{self.key} ({details})" if details else self.key


class InvalidState(PickominoError):
    """Stored or supplied state is not a position the rules allow."""
