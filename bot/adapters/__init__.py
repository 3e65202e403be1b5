"""Games behind the session layer's GameAdapter protocol (bot.sessions.adapter)."""

from bot.adapters.pickomino import PickominoAdapter
from bot.sessions.adapter import GameAdapter


def all_adapters() -> dict[str, GameAdapter]:
    """Every playable game by kind."""
    adapters: list[GameAdapter] = [PickominoAdapter()]
    return {adapter.kind: adapter for adapter in adapters}


__all__ = ["PickominoAdapter", "all_adapters"]
