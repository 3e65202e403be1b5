"""Fixtures for every test."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest

from bot.games.picker.ai.exact import TABLES

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
