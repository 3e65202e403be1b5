"""Pictures drawn when first asked for: a set whose pictures are mostly never needed
(bot.pictures.emojis: Discord already holds the emojis) costs nothing to hand over."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping


class Drawn(Mapping[str, bytes]):
    """A set of pictures, name -> PNG, each drawn the first time it is read, then kept."""

    def __init__(self, drawers: Mapping[str, Callable[[], bytes]]) -> None:
        self._drawers = dict(drawers)
        self._drawn: dict[str, bytes] = {}

    def __getitem__(self, name: str) -> bytes:
        image = self._drawn.get(name)
        if image is None:
            image = self._drawn[name] = self._drawers[name]()
        return image

    def __iter__(self) -> Iterator[str]:
        return iter(self._drawers)

    def __len__(self) -> int:
        return len(self._drawers)
