"""The gateway payload builders drive the real bot: a /pickomino start and a Join click
built by `bot.devserver.payloads`, handed to discord.py as the gateway would."""

from __future__ import annotations

from pathlib import Path

from bot.devserver.payloads import click_payload, start_command
from tests.discord_harness import CHANNEL_ID, BotHarness


async def test_a_start_command_and_a_click_from_the_builders(tmp_path: Path) -> None:
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        started = await harness.dispatch(start_command("pickomino", 101, CHANNEL_ID, 1))
        lobby = started.message
        assert "player101" in lobby.text() and not started.ephemeral
        join = lobby.button("Join")["custom_id"]
        joined = await harness.dispatch(click_payload(102, lobby.payload, join, 2))
        assert joined.edited, joined.ephemeral
        shown = harness.message(lobby.id).text()
        assert "player101" in shown and "player102" in shown
