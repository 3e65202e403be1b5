"""``host:port`` as HEALTH_ADDR spells it: ``127.0.0.1:8081``, ``0.0.0.0:8081``, ``[::1]:8081``."""

from __future__ import annotations

__all__ = ["parse_host_port", "probe_host"]

MAX_PORT = 65535
# Listening on every interface is reachable from inside the container on loopback.
WILDCARDS = {"0.0.0.0": "127.0.0.1", "::": "::1"}


def parse_host_port(text: str) -> tuple[str, int]:
    """Split ``host:port``; raise ``ValueError`` with the expected form when it is not one."""
    host, sep, port_text = text.strip().rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]  # an IPv6 address in brackets
    if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) <= MAX_PORT:
        raise ValueError(
            f"must be host:port with a port from 1 to {MAX_PORT}, e.g. 127.0.0.1:8081, got {text!r}"
        )
    return host, int(port_text)


def probe_host(host: str) -> str:
    """Where a process on the same machine reaches a server listening on ``host``."""
    return WILDCARDS.get(host, host)
