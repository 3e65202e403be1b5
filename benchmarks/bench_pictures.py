"""Benchmark the pictures: each emoji set, and the end picture for 2, 4 and 7 players.

Usage: python -m benchmarks.bench_pictures [--repeats N]

Prints the first call (cold: nothing cached) and the median of N more calls, with the
size of what was drawn. An emoji set draws each picture when first read (Discord mostly
holds them already), so a set is measured with every picture read; the end picture is
drawn once per finished game.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable, Mapping

from benchmarks.support.arguments import positive
from bot.games.picker.pictures import picker_emojis
from bot.games.pickomino.end_picture import PlayerFinal, draw_end_picture
from bot.games.pickomino.pictures import pickomino_emojis, tile_worms


def sample_game(players: int, turns: int = 60, seed: int = 1) -> list[PlayerFinal]:
    """Tiles dealt at random to `players`, worms rising turn by turn to each score."""
    rng = random.Random(seed)
    stacks: list[list[int]] = [[] for _ in range(players)]
    for value in range(21, 37):
        stacks[rng.randrange(players)].append(value)
    scores = [sum(tile_worms(value) for value in stack) for stack in stacks]
    order = sorted(range(players), key=lambda seat: -scores[seat])
    return [
        PlayerFinal(
            name=f"Player {seat + 1}",
            score_by_turn=tuple(scores[seat] * (turn + 1) // turns for turn in range(turns)),
        )
        for seat in order
    ]


def measure(
    label: str, draw: Callable[[], object], size: Callable[[object], str], repeats: int
) -> None:
    started = time.perf_counter()
    result = draw()
    first = time.perf_counter() - started
    timings = []
    for _ in range(repeats):
        started = time.perf_counter()
        draw()
        timings.append(time.perf_counter() - started)
    median = statistics.median(timings)
    print(
        f"{label:<24} first {first * 1000:7.1f} ms  median {median * 1000:7.1f} ms  {size(result)}"
    )


def every_picture(emoji_set: Callable[[], Mapping[str, bytes]]) -> dict[str, bytes]:
    """A fresh set with each of its pictures drawn."""
    return dict(emoji_set())


def set_size(images: object) -> str:
    assert isinstance(images, Mapping)
    sizes = [len(data) for data in images.values()]
    return f"{len(sizes)} emojis, {sum(sizes) / 1024:.1f} KiB, largest {max(sizes) / 1024:.1f} KiB"


def picture_size(data: object) -> str:
    assert isinstance(data, bytes)
    return f"{len(data) / 1024:.1f} KiB"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=positive, default=5)
    args = parser.parse_args(argv)
    for emoji_set in (pickomino_emojis, picker_emojis):
        measure(
            f"{emoji_set.__name__}()",
            functools.partial(every_picture, emoji_set),
            set_size,
            args.repeats,
        )
    for players in (2, 4, 7):
        game = sample_game(players)
        measure(
            f"end picture, {players} players",
            functools.partial(draw_end_picture, game),
            picture_size,
            args.repeats,
        )


if __name__ == "__main__":
    main()
