"""Benchmark: a click in `make play`'s page until the updated message is drawn.

Runs `python -m bot.devserver` (the stand-in, the page and the real bot process), opens
two tabs (Anne and Bob) in headless Chromium and plays whole games with a computer player
by clicking, as tests/devserver/test_play_browser.py does: Pickomino, or Picker with
`--game picker` (a dozen clicks a game). The page times each click itself
(`performance.now()` at the click, and at the animation frame after the change was put
in the page) and the figures are p50 and p99 over every click of the games (the computer
player's steps are not clicks). The stand-in behaves as Discord does (`make play
--real-discord`: 80 ms round trips, for the tab's click as for the bot's answer, and
Discord's rate limits); `--ideal-discord` leaves the network out, and the target is for
that: p99 under 100 ms.

Usage: python -m benchmarks.bench_play [--games 1] [--game pickomino|picker] [--ideal-discord]
Needs /usr/bin/chromium and Playwright, as the browser tests do.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.support.arguments import positive
from benchmarks.support.stats import percentile
from bot.preview.shoot import BrowserMissing, Camera
from tests.devserver.play_driver import (
    Move,
    Tab,
    open_game,
    picker_move,
    pickomino_move,
    play_server,
    play_to_the_end,
)

MOVES: dict[str, Move] = {"pickomino": pickomino_move, "picker": picker_move}


async def run(games: int, game_kind: str, *, real_discord: bool) -> list[float]:
    clicks: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-play-") as workdir:
        data = Path(workdir) / "data"
        async with (
            Camera() as camera,
            play_server(data, real_discord=real_discord) as server,
        ):
            tabs = {
                name: await Tab.open(camera.browser, server.url, name) for name in ("Anne", "Bob")
            }
            for game in range(games):
                if game:
                    await tabs["Anne"].command(f"/{game_kind} status")  # a fresh message each game
                await open_game(tabs, f"/{game_kind} start turn_timer:0")
                for tab in tabs.values():
                    await tab.page.evaluate("() => { window.playStats.clicks = []; }")
                await play_to_the_end(None, tabs, MOVES[game_kind], wrong_turn_by=None)
                for tab in tabs.values():
                    clicks += await tab.latencies()
    return clicks


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_play")
    parser.add_argument("--games", type=positive, default=1)
    parser.add_argument("--game", choices=sorted(MOVES), default="pickomino")
    parser.add_argument(
        "--ideal-discord", action="store_true", help="a stand-in without Discord's latency"
    )
    args = parser.parse_args(argv)
    try:
        clicks = asyncio.run(run(args.games, args.game, real_discord=not args.ideal_discord))
    except BrowserMissing as error:
        sys.exit(f"error: {error}")
    print(
        f"play page, click to updated message drawn, {len(clicks)} clicks over "
        f"{args.games} {args.game.capitalize()} game(s): p50 {statistics.median(clicks):.1f} ms, "
        f"p99 {percentile(clicks, 0.99):.1f} ms, max {max(clicks):.1f} ms "
        + (
            "(ideal Discord; target p99 < 100 ms)"
            if args.ideal_discord
            else "(Discord's latency, rate limits and rules)"
        )
    )


if __name__ == "__main__":
    main()
