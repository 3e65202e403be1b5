"""Pictures drawn when first asked for: a set whose pictures are mostly never needed
(bot.pictures.emojis: Discord already holds the emojis) costs nothing to hand over."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache


class Drawn(Mapping[str, bytes]):
    """A set of pictures, name -> PNG, each drawn the first time it is read, then kept."""

    def __init__(self, drawers: Mapping[str, Callable[[], bytes]]) -> None:
        self._drawers = {name: cache(draw) for name, draw in drawers.items()}

    def __getitem__(self, name: str) -> bytes:
        return self._drawers[name]()

    def __iter__(self) -> Iterator[str]:
        return iter(self._drawers)

    def __len__(self) -> int:
        return len(self._drawers)
