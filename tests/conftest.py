"""Fixtures for every test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.games.picker.ai.exact import TABLES
from tests.benchmarks.stand_in_tables import kept_picker_tables

# The PostgreSQL server and the databases of both dialects: fixtures shared by all tests.
pytest_plugins = ["tests.databases"]


@pytest.fixture(autouse=True, scope="session")
def no_background_tables() -> Iterator[None]:
    """A bot started by a test would build Picker's exact tables in the background (a
    minute of CPU) and switch 3-player Hard to them halfway through the suite; tests of
    the tables build their own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TABLES, "start", lambda cache=None: None)
        yield


@pytest.fixture
def bots_load_stand_in_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A CACHE_DIR for the bot processes the test starts (they inherit the environment),
    holding stand-ins for Picker's exact tables, which they load at once. With none kept,
    every process would build them, a core for 45 s beside the game under test; only
    3-player Picker's Hard and its hints read them, which no such test plays."""
    cache = tmp_path / "picker-tables"
    kept_picker_tables(cache)
    monkeypatch.setenv("CACHE_DIR", str(cache))


@pytest.fixture(autouse=True, scope="session")
def no_voice_warnings() -> None:
    """discord.py warns once a process, at its first client, that voice is not installed
    (this bot has no voice). Which test builds that client depends on the order and on
    the worker a test runs in, so a test that checks its log for warnings would pass or
    fail by where it ran: the warnings are spent here, before any test."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


@pytest.fixture(autouse=True)
def discord_globals() -> Iterator[None]:
    """Put back what bot.connection.endpoints.apply_endpoint_overrides changes in
    discord.py.

    Those are class attributes shared by the whole process, so a test pointing
    discord.py at a stand-in must not leave the next test pointing there too.
    """
    base = discord.http.Route.BASE
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    yield
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
