"""The table in the bot process: started with the bot when the client secret is set and
the page built, its tabs told 1012 when the bot stops; without the page the bot runs
without the table and says in one line how to build it; on PostgreSQL, a change another
process commits reaches the tabs here within a second."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from bot.app.client import DiceBot
from bot.config import Settings
from bot.devserver.standin import FakeDiscord, running_client
from bot.sessions import actions
from bot.sessions.actions import Actor
from bot.sessions.model import Session
from bot.sessions.service import SessionService
from bot.storage import open_database
from bot.table.assets import HOW_TO_BUILD
from tests.table.server.conftest import SOON, WAIT, Table, table_bot, tracebacks


async def test_without_the_built_page_the_bot_runs_without_the_table_and_says_so_once(
    stand_in: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch
):
    monkeypatch.setattr("bot.app.startup.built_page", lambda: None)
    caplog.set_level(logging.INFO)
    bot = DiceBot(
        Settings(
            discord_token=stand_in.token,  # type: ignore[arg-type]
            database_url=f"sqlite:///{tmp_path / 'bot.db'}",
            discord_api_base=stand_in.api_base,
            discord_gateway_url=stand_in.gateway_url,
            gateway_session_dir=None,
            cache_dir=tmp_path / "cache",
            emoji_sync=False,
            discord_client_secret=stand_in.client_secret,  # type: ignore[arg-type]
        ),
        rng=random.Random(1),
    )
    async with running_client(stand_in, bot, timeout=WAIT):
        await stand_in.wait_for_commands("pickomino", timeout=WAIT)
        assert bot.table is None
        started = await stand_in.send_command("alice", "pickomino start")
        assert started.message is not None  # the chat game goes on
        assert not [b for b in started.message.buttons if ":table:" in (b.custom_id or "")]
    said = [record for record in caplog.records if "make page" in record.getMessage()]
    assert [record.getMessage() for record in said] == [HOW_TO_BUILD]
    assert said[0].levelno == logging.WARNING
    assert "table" not in [command["name"] for command in stand_in.commands[None].values()]
    assert tracebacks(caplog) == []


async def test_when_the_bot_stops_every_tab_is_told_to_reconnect(table: Table, caplog):
    alice = await table.tab("alice")
    bob = await table.tab("bob", locale="pl")
    await table.bot.close()
    assert await alice.closed() == 1012
    assert await bob.closed() == 1012
    assert table.bot.table is None
    assert tracebacks(caplog) == []


async def test_a_change_another_process_commits_reaches_the_tabs_here_within_a_second(
    stand_in: FakeDiscord, tmp_path: Path, postgres_url: str, caplog
):
    async with table_bot(stand_in, tmp_path, database_url=postgres_url) as table:
        assert table.bot.sessions.notify_commits
        alice = await table.tab("alice")
        assert alice.scene()["phase"] == "start"
        # Another process (one that owns no guild: it shows no live message) opens a
        # lobby in the channel, and Bob joins it there.
        db = await open_database(postgres_url)
        other = SessionService(
            db,
            table.bot.games.adapters(),
            rng=random.Random(2),
            owns_guild=lambda guild_id: False,
            notify_commits=True,
        )
        try:
            channel = stand_in.channel
            host = stand_in.user("alice")
            lobby = Session(
                "pickomino",
                guild_id=channel.guild_id or stand_in.guild_id,
                channel_id=channel.id,
                host_id=host.id,
                seats=[Actor(host.id, host.global_name or "Alice", "en").seat()],
            )
            await other.open(lobby)
            await alice.next_state(lambda state: state["scene"]["phase"] == "lobby", timeout=SOON)
            bob = stand_in.user("bob")
            joins = actions.mutation_for(Actor(bob.id, bob.global_name or "Bob", "de"), "join")
            await other.update(channel.id, joins)
            state = await alice.next_state(timeout=SOON)
            assert [p["name"] for p in state["scene"]["players"]] == ["Alice", "Bob"]
        finally:
            await other.close()
            await db.close()
    assert tracebacks(caplog) == []
