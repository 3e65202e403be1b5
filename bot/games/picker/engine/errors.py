"""Domain exceptions. An illegal move carries an i18n key and its parameters, so the
player reads the reason in their own words (bot/i18n/en/picker.json)."""

from __future__ import annotations


class PickerError(Exception):
    """Base of every error the engine raises."""


class IllegalMove(PickerError):
    """The move is not allowed now; the game is left exactly as it was.

    `key` is a `picker.illegal.*` string of the catalog, `params` fill its placeholders.
    """

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return self.key


class InvalidState(PickerError):
    """Stored or supplied state is not a position the rules allow."""
