"""`python -m bot ratings rebuild` (bot.__main__): the ratings built again from history
with one line of what was done; bad use, a database in use or out of reach an `error:`
line and exit code 2, nothing stored changed."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.history.sql import SqlResultStore
from bot.storage import apply_migrations, open_database
from tests.storage.test_ratings import season

ROOT = Path(__file__).resolve().parents[2]


async def _fill(url: str) -> list[tuple]:
    db = await open_database(url)
    try:
        await apply_migrations(db)
        for result in season(40):
            async with db.transaction() as conn:
                await SqlResultStore().save(conn, result)
        return await _ratings_in(db)
    finally:
        await db.close()


async def _ratings_in(db) -> list[tuple]:
    rows = await db.fetchall(
        "SELECT user_id, bot_level, mu, sigma, games FROM ratings ORDER BY 1, 2"
    )
    return [tuple(row) for row in rows]


async def _read(url: str) -> list[tuple]:
    db = await open_database(url)
    try:
        return await _ratings_in(db)
    finally:
        await db.close()


def test_rebuild_twice_gives_the_same_ratings(tmp_path, monkeypatch, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    live = asyncio.run(_fill(url))
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)  # not needed to rebuild
    for _ in range(2):
        assert main(["ratings", "rebuild"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("ratings rebuilt: ") and "in 1 communities" in out
        assert asyncio.run(_read(url)) == live


def test_a_database_in_use_is_an_error_line_and_changes_nothing(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    live = asyncio.run(_fill(url))

    async def while_the_bot_runs() -> subprocess.CompletedProcess[str]:
        bot_db = await open_database(url, exclusive=True)  # the running bot's hold
        try:
            return await asyncio.to_thread(_run, ["ratings", "rebuild"], url)
        finally:
            await bot_db.close()

    done = asyncio.run(while_the_bot_runs())
    assert done.returncode == 2
    assert done.stderr.startswith("error: database: ") and "Traceback" not in done.stderr
    assert asyncio.run(_read(url)) == live


def _run(args: list[str], url: str = "sqlite:///:memory:") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("args", [["ratings"], ["ratings", "rebuilt"], ["ratings", "rebuild", "x"]])
def test_bad_use_is_an_error_line_and_exit_2(args: list[str]) -> None:
    done = _run(args)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].startswith("python -m bot")
    assert "error:" in done.stderr and "Traceback" not in done.stderr
