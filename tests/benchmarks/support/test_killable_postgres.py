"""The benchmarks' PostgreSQL dies whole when killed, as with its host, and starts again on
its data at the first try; stopping it leaves nothing running."""

import asyncio
import warnings
from pathlib import Path

import asyncpg
import pytest

from benchmarks.support import killable_postgres
from benchmarks.support.killable_postgres import KillablePostgres
from benchmarks.support.procfs import children, running


def server_processes(server: KillablePostgres) -> list[int]:
    """The postmaster and every process it started that runs (a client's backend that
    ended may wait to be reaped)."""
    postmaster = server.postmaster_pid()
    return [postmaster, *filter(running, children(postmaster))]


async def count_rows(url: str) -> int:
    connection = await asyncpg.connect(url, timeout=5)
    try:
        return int(await connection.fetchval("SELECT count(*) FROM kept"))
    finally:
        await connection.close()


def test_a_killed_server_is_gone_whole_and_starts_again_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")
    server = KillablePostgres(tmp_path)
    try:

        async def fill() -> None:
            connection = await asyncpg.connect(server.admin_url, timeout=5)
            try:
                await connection.execute("CREATE TABLE kept (n int); INSERT INTO kept VALUES (1)")
            finally:
                await connection.close()

        asyncio.run(fill())
        processes = server_processes(server)
        assert len(processes) > 2 and running(processes[0])
        server.kill()
        assert not any(map(running, processes))  # no backend left holding its memory
        assert not Path(f"/proc/{processes[0]}").exists()  # nor the postmaster's pid
        with pytest.raises(OSError):
            asyncio.run(count_rows(server.admin_url))
        server.stop()  # down already: nothing to do, nothing said

        monkeypatch.setattr(killable_postgres, "START_ATTEMPTS_SECONDS", 0.0)  # one try
        server.start()
        assert asyncio.run(count_rows(server.admin_url)) == 1  # its data, recovered
        processes = server_processes(server)
    finally:
        server.stop()
    assert not any(map(running, processes))
