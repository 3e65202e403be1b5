"""The real bot process with HEALTH_ADDR and LOG_FORMAT=json, against the Discord stand-in.

Start-up (the computer players' tables, the command sync) takes a few seconds, so this is
one test that follows the endpoint through a whole life: 200 once connected, the gateway
latency measured, nothing listening after SIGTERM, and every line the process wrote being
one JSON object.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp

from bot.devserver.standin import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def fetch(url: str) -> tuple[int, str] | None:
    """Status and body, or None while nothing listens."""
    try:
        async with aiohttp.ClientSession() as session, session.get(url) as response:
            return response.status, await response.text()
    except aiohttp.ClientConnectionError:
        return None


async def poll(url: str, done, timeout: float = START_TIMEOUT) -> tuple[int, str]:
    """GET ``url`` until ``done(answer)``; the last answer."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        answer = await fetch(url)
        if answer is not None and done(answer):
            return answer
        assert loop.time() < end, f"timed out on {url}; last answer {answer}"
        await asyncio.sleep(0.1)


def bot_env(fake: FakeDiscord, workdir: Path, port: int) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if k != "DEV_GUILD_ID"},
        **fake.env(),
        "DATABASE_URL": f"sqlite:///{workdir}/bot.db",
        "HEALTH_ADDR": f"127.0.0.1:{port}",
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "INFO",
        "PYTHONPATH": str(ROOT),
    }


async def test_health_metrics_and_json_logs_of_the_running_bot(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = tmp_path / "bot.log"
    async with FakeDiscord(heartbeat_interval_ms=300) as fake:
        with log_path.open("wb") as log_file:
            process = subprocess.Popen(
                [sys.executable, "-m", "bot"],
                cwd=tmp_path,
                env=bot_env(fake, tmp_path, port),
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
            )
        try:
            _, body = await poll(f"{base}/healthz", lambda answer: answer[0] == 200)
            assert json.loads(body) == {"status": "ok"}
            _, metrics = await poll(
                f"{base}/metrics",
                lambda answer: 'bot_gateway_latency_seconds{shard="0"}' in answer[1],
            )
            assert "# TYPE bot_discord_http_errors_total counter" in metrics
            process.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(process.wait, 30) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        fake.check()
    assert await fetch(f"{base}/healthz") is None
    text = log_path.read_text()
    entries = [json.loads(line) for line in text.splitlines()]
    messages = {(entry["logger"], entry["message"]) for entry in entries}
    assert ("bot.app.shutdown", "shutting down") in messages
    assert ("bot.app.shutdown", "shut down cleanly") in messages
    assert any(entry["message"].startswith("health and metrics on") for entry in entries)
    assert all({"time", "level", "logger", "message"} <= set(entry) for entry in entries)


async def test_a_health_port_in_use_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with FakeDiscord() as fake:
            done = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "bot"],
                cwd=tmp_path,
                env=bot_env(fake, tmp_path, port),
                capture_output=True,
                text=True,
                timeout=START_TIMEOUT,
            )
    assert done.returncode == 2
    last_line = done.stderr.strip().splitlines()[-1]
    assert last_line.startswith(f"error: HEALTH_ADDR: cannot listen on 127.0.0.1:{port}: ")
    assert "Traceback" not in done.stderr
