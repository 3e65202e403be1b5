"""What the session layer reports as it works (the bot's Prometheus metrics listen)."""

from __future__ import annotations

from typing import Protocol


class SessionObserver(Protocol):
    def commit(self, seconds: float) -> None: ...

    def version_conflict(self) -> None: ...

    def game_started(self, game: str) -> None: ...

    def game_finished(self, game: str, abandoned: bool) -> None: ...

    def timer_late(self, seconds: float) -> None: ...


class NoObserver:
    """Reports to nobody (tests, scripts)."""

    def commit(self, seconds: float) -> None:
        return None

    def version_conflict(self) -> None:
        return None

    def game_started(self, game: str) -> None:
        return None

    def game_finished(self, game: str, abandoned: bool) -> None:
        return None

    def timer_late(self, seconds: float) -> None:
        return None
