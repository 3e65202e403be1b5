"""Benchmark: how much of the bot token's global rate limit a game spends.

Discord allows a bot 50 requests a second with its token, shared by every shard;
interaction answers and interaction-webhook edits do not count. This plays whole
Pickomino games of one person and three computer players (Easy, Normal, Hard) through
the real handlers (tests/discord_harness.py), counts every request by route, and
prints the bot-token requests per game-minute at the default pace, and so how many
such games one token can run at once.

The pace does not change what is sent, only when: a game-minute is counted as
`BOT_STEP_SECONDS` (1 s, the default) per computer player's step plus THINK_SECONDS
per click of the person.

Usage: python -m benchmarks.bench_token_budget [--games 5]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections import Counter
from pathlib import Path

from benchmarks.support.arguments import positive
from bot.render.custom_ids import ComponentRef
from tests.cogs.helpers import add_bots, choose, open_lobby
from tests.discord_harness import BotHarness, StoredMessage

GLOBAL_LIMIT_PER_SECOND = 50  # Discord's, for every bot-token route
STEP_SECONDS = 1.0  # BOT_STEP_SECONDS's default
THINK_SECONDS = 3.0  # a person's time per click
# Routes that answer or edit through an interaction's token: outside the global limit.
INTERACTION_ROUTES = ("/interactions/", "/webhooks/{webhook_id}/{webhook_token}")


def is_bot_token(path: str) -> bool:
    return not path.startswith(INTERACTION_ROUTES)


def shown_version(message: StoredMessage) -> int:
    """The session version the message's buttons carry."""
    refs = (ComponentRef.parse(button["custom_id"]) for button in message.buttons)
    return max(ref.version for ref in refs if ref is not None)


async def play_one(seed: int, workdir: Path) -> tuple[Counter[str], int, int]:
    """One game; the requests by route (after the lobby is set up), the computer
    players' steps and the person's clicks."""
    async with BotHarness.running(workdir / f"bench-{seed}.db", seed=seed) as harness:
        anne = harness.user("Anne")
        lobby = await add_bots(
            harness, anne, await open_lobby(harness, anne), "Easy", "Normal", "Hard"
        )
        before = len(harness.fake.requests)
        await harness.click(anne, harness.message(lobby.id), "Start")
        started = shown_version(harness.message(lobby.id))
        clicks = 0
        for _ in range(5000):
            await harness.run_bots()
            message = harness.message(lobby.id)
            if any(":again:" in button["custom_id"] for button in message.buttons):
                break
            await harness.click(anne, message, choose(message))
            clicks += 1
        await harness.settle()
        # Every change is a version: the person's clicks, and the computer players' steps.
        steps = shown_version(harness.message(lobby.id)) - started - clicks
        routes = Counter(
            f"{request.method} {request.path}" for request in harness.fake.requests[before:]
        )
        return routes, steps, clicks


async def run(games: int) -> None:
    routes: Counter[str] = Counter()
    steps = clicks = 0
    with tempfile.TemporaryDirectory(prefix="bench-token-") as workdir:
        for seed in range(1, games + 1):
            game_routes, game_steps, game_clicks = await play_one(seed, Path(workdir))
            routes += game_routes
            steps += game_steps
            clicks += game_clicks
    minutes = (steps * STEP_SECONDS + clicks * THINK_SECONDS) / 60
    token = {route: n for route, n in routes.items() if is_bot_token(route.split(" ", 1)[1])}
    spent = sum(token.values())
    per_minute = spent / minutes
    print(
        f"{games} game(s) of 1 person and 3 computer players: {steps} computer steps, "
        f"{clicks} clicks, {minutes:.1f} game-minutes at the default pace"
    )
    print("requests by route (bot token marked *):")
    for route, count in routes.most_common():
        mark = "*" if route in token else " "
        print(f"  {mark} {count:6d}  {route}")
    print(f"bot-token requests: {spent} ({per_minute:.2f} per game-minute)")
    if per_minute:
        games_per_token = GLOBAL_LIMIT_PER_SECOND * 60 / per_minute
        print(f"games one token can run at once within 50/s: {games_per_token:,.0f}")
    else:
        print("games one token can run at once within 50/s: no limit from these games")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive, default=5)
    asyncio.run(run(parser.parse_args(argv).games))


if __name__ == "__main__":
    main()
