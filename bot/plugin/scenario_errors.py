"""The one error every game's scenario player raises, so the runner prints it alike."""

from __future__ import annotations


class ScenarioError(Exception):
    """A scenario that cannot be played; `where` is "turn.step" (or the game's own
    index form) or "" for the file as a whole."""

    def __init__(self, reason: str, where: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.where = where

    def line(self) -> str:
        return f"error: {self.where}: {self.reason}" if self.where else f"error: {self.reason}"
