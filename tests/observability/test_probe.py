"""The container's HEALTHCHECK: passes without HEALTH_ADDR, otherwise asks /healthz."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.observability.health import HealthServer
from bot.observability.metrics import Metrics
from bot.observability.probe import HEALTHY, UNHEALTHY, healthz_url, probe

ROOT = Path(__file__).resolve().parents[2]


class Switch:
    """A check whose answer the test sets."""

    def __init__(self) -> None:
        self.reason: str | None = None

    async def __call__(self) -> str | None:
        return self.reason


@pytest.fixture
async def served() -> AsyncIterator[tuple[HealthServer, Switch]]:
    switch = Switch()
    server = HealthServer(("127.0.0.1", 0), [switch], Metrics())
    await server.start()
    yield server, switch
    await server.stop()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize(
    ("addr", "url"),
    [
        ("127.0.0.1:8081", "http://127.0.0.1:8081/healthz"),
        ("0.0.0.0:8081", "http://127.0.0.1:8081/healthz"),
        ("[::]:9000", "http://[::1]:9000/healthz"),
        ("[::1]:9000", "http://[::1]:9000/healthz"),
        ("health.internal:80", "http://health.internal:80/healthz"),
    ],
)
def test_the_url_asked_for_each_address(addr: str, url: str) -> None:
    assert healthz_url(addr) == url


def test_without_health_addr_the_probe_passes() -> None:
    assert probe(None)[0] == HEALTHY
    assert probe("")[0] == HEALTHY


async def test_200_passes_and_503_fails_with_the_reason(served) -> None:
    server, switch = served
    addr = f"127.0.0.1:{server.port}"
    status, line = await asyncio.to_thread(probe, addr)
    assert (status, line) == (HEALTHY, f"http://{addr}/healthz: 200")
    switch.reason = "closing"
    status, line = await asyncio.to_thread(probe, addr)
    assert status == UNHEALTHY
    assert line.startswith(f"http://{addr}/healthz: 503") and '"closing"' in line


def test_nothing_listening_fails() -> None:
    status, line = probe(f"127.0.0.1:{closed_port()}", timeout=1.0)
    assert status == UNHEALTHY and "refused" in line.lower()


def run_probe(cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot.observability.probe`` with only ``env`` set (no DISCORD_TOKEN)."""
    return subprocess.run(
        [sys.executable, "-m", "bot.observability.probe"],
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_python_dash_m_probe_passes_without_health_addr(tmp_path: Path) -> None:
    for done in (run_probe(tmp_path), run_probe(tmp_path, HEALTH_ADDR="")):
        assert done.returncode == HEALTHY, done.stderr
        assert done.stdout.startswith("HEALTH_ADDR is not set")


def test_python_dash_m_probe_fails_when_nothing_answers(tmp_path: Path) -> None:
    done = run_probe(tmp_path, HEALTH_ADDR=f"127.0.0.1:{closed_port()}")
    assert done.returncode == UNHEALTHY
    assert "Traceback" not in done.stderr


def test_a_bad_health_addr_fails_the_probe_with_one_line(tmp_path: Path) -> None:
    done = run_probe(tmp_path, HEALTH_ADDR="8081")
    assert done.returncode == UNHEALTHY
    assert done.stderr.startswith("error: HEALTH_ADDR: ") and len(done.stderr.splitlines()) == 1
