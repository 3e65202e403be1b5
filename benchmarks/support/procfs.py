"""A process's memory, CPU time and open TCP connections, read from Linux's /proc.

No psutil: it is not a dependency of the project. Connections are told apart by the
port at their far end (the database's, Discord's), found by matching the socket inodes
of /proc/<pid>/fd against /proc/<pid>/net/tcp and tcp6.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
ESTABLISHED = "01"


@dataclass(frozen=True, slots=True)
class ProcessSample:
    rss_mb: float
    cpu_seconds: float  # user and system time since the process started
    connections: Counter[int]  # established TCP connections by remote port


def sample(pid: int) -> ProcessSample | None:
    """The process's figures now, or None when it has gone."""
    try:
        return ProcessSample(rss_mb(pid), cpu_seconds(pid), connections(pid))
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024  # kB
    return 0.0


def cpu_seconds(pid: int) -> float:
    fields = _stat(pid)
    utime, stime = int(fields[11]), int(fields[12])  # fields 14 and 15 of proc(5)
    return (utime + stime) / CLOCK_TICKS


def server_cpu_seconds(pid: int) -> float:
    """The CPU time of a server that forks a process per client (PostgreSQL): its own,
    its children's that it has reaped, and its live children's."""
    fields = _stat(pid)
    total = sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
    for child in children(pid):
        try:
            child_fields = _stat(child)
        except OSError:
            continue  # exited since the listing
        total += int(child_fields[11]) + int(child_fields[12])
    return total / CLOCK_TICKS


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` now."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int(_stat(int(entry.name))[1])  # field 4 of proc(5)
        except OSError:
            continue  # exited since the listing
        if parent == pid:
            found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Whether the process is there and not a zombie (dead, its parent yet to reap it)."""
    try:
        return _stat(pid)[0] != "Z"  # field 3 of proc(5): the state
    except OSError:
        return False


def _stat(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after the command name (field 2, which may hold
    spaces): field 3 of proc(5) is index 0."""
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()


def connections(pid: int) -> Counter[int]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed since the listing
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports: Counter[int] = Counter()
    for table in ("tcp", "tcp6"):
        path = Path(f"/proc/{pid}/net/{table}")
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            remote, state, inode = fields[2], fields[3], fields[9]
            if state == ESTABLISHED and inode in inodes:
                ports[int(remote.rpartition(":")[2], 16)] += 1
    return ports
