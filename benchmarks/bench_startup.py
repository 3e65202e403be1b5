"""Benchmark: the CPU a bot process spends on its own at a start, beside the clicks.

Usage: python -m benchmarks.bench_startup [--repeats 5] [--cache-dir DIR] [--bot-dir DIR ...]

A restarted process at 1,000 games answers the clicks of its games while it starts,
and whatever else it computes then holds the GIL its event loop needs
(commit 66a99e5). Each part is timed in a fresh process, as a
start does it, and printed as the median of --repeats, wall and CPU:

- the bot's imports (`import bot.app.client`);
- Pickomino's tables (`ai.warm_up`: the turn graphs, 8 dice and Extrawurm's 8 and 9);
- Pickomino's first end picture, its fonts loaded (the plugin's warm-up draws one);
- Picker's three-player tables, loaded from the file a first start kept in --cache-dir
  (CACHE_DIR; built once, about 45 s, if the folder holds none for this code);
- the emoji pictures handed to the book when Discord holds every emoji already.

`--bot-dir` names the checkout whose code is timed (default: this one); given twice or
more, each is timed in turn, for a before/after on one machine:

    python -m benchmarks.bench_startup --bot-dir /tmp/before --bot-dir .
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from dataclasses import dataclass
from pathlib import Path

from benchmarks.support.arguments import positive
from benchmarks.support.picker_tables import keep_picker_tables, run_in

HERE = Path(__file__).resolve().parent.parent

# Each part's code, run by `python -c` in the checkout: it prints its wall and CPU time.
_TIMED = """
import time
{setup}
started, cpu = time.perf_counter(), time.process_time()
{work}
print(time.perf_counter() - started, time.process_time() - cpu)
"""


@dataclass(frozen=True)
class Part:
    name: str
    setup: str
    work: str


# A checkout from before bot/app/ (a before/after across that move) had bot/client.py.
_IMPORT_THE_BOT = """
try:
    import bot.app.client
except ModuleNotFoundError:
    import bot.client
"""

PARTS = (
    Part("imports (import bot.app.client)", "", _IMPORT_THE_BOT),
    Part(
        "Pickomino's tables (ai.warm_up)",
        "from bot.games.pickomino.ai import warm_up",
        "warm_up()",
    ),
    Part(
        # What its warm-up (end_picture.warm_up) now takes off the first game-end click.
        "Pickomino's first end picture, fonts cold",
        "from bot.games.pickomino.end_picture import PlayerFinal, draw_end_picture",
        "draw_end_picture([PlayerFinal('Ada', (1, 3, 6)), PlayerFinal('Zoë', (2, 2, 4))])",
    ),
    Part(
        "Picker's tables, loaded from CACHE_DIR",
        "from pathlib import Path\n"
        "from bot.games.picker.ai import exact\n"
        "path = Path({cache!r}) / exact.CACHE_NAME",
        "exact.Tables().load(path)",
    ),
    Part(
        "emoji pictures, Discord holding them all",
        "from bot.games.pickomino.plugin import PICKOMINO\n"
        "from bot.pictures.emojis import EmojiBook",
        "EmojiBook(PICKOMINO.emojis())",
    ),
)


def time_part(bot_dir: Path, part: Part, cache: Path, repeats: int) -> tuple[float, float]:
    """The median wall and CPU seconds of `part` over `repeats` fresh processes."""
    code = _TIMED.format(
        setup=part.setup.format(cache=str(cache)), work=part.work.format(cache=str(cache))
    )
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = map(float, run_in(bot_dir, code).split()[-2:])
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=positive, default=5)
    parser.add_argument(
        "--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "bench-soak-cache"
    )
    parser.add_argument("--bot-dir", type=Path, action="append")
    args = parser.parse_args(argv)
    for bot_dir in [path.resolve() for path in args.bot_dir or [HERE]]:
        if not (bot_dir / "bot" / "__main__.py").exists():
            parser.error(f"{bot_dir} is not a checkout of this bot (no bot/__main__.py)")
        print(f"{bot_dir} (medians of {args.repeats} fresh processes):")
        print(keep_picker_tables(bot_dir, args.cache_dir), end="")
        total_cpu = 0.0
        for part in PARTS:
            wall, cpu = time_part(bot_dir, part, args.cache_dir, args.repeats)
            total_cpu += cpu
            print(f"  {part.name:45} {wall * 1000:7.1f} ms wall {cpu * 1000:7.1f} ms CPU")
        print(f"  {'together':45} {'':17} {total_cpu * 1000:7.1f} ms CPU")


if __name__ == "__main__":
    main()
