"""Nothing is lost: a restart resumes mid-turn; a failed commit changes nothing."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import database
from tests.cogs.helpers import start_game
from tests.discord_harness import BotHarness


async def test_a_new_bot_on_the_same_database_resumes_mid_turn(tmp_path):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, close=False) as first:  # then "kill -9"
        anne, bob = first.user("Anne"), first.user("Bob")
        live = await start_game(first, [anne, bob], first_player="host")
        rolled = await first.click(anne, first.message(live.id), "Roll")
        keep = next(b for b in rolled.message.enabled() if ":keep:" in b["custom_id"])
        kept = await first.click(anne, first.message(live.id), keep["custom_id"])
        assert kept.edited
        before = await first.session()
        fake = first.fake

    async with BotHarness.running(database, fake=fake, seed=99) as second:
        resumed = await second.session()
        assert resumed.version == before.version
        assert resumed.game == before.game  # the same dice kept, nothing rolled again
        result = await second.click(anne, second.message(live.id), "Roll")
        assert result.edited and result.ephemeral is None
        after = await second.session()
        assert after.version == before.version + 1
        # The command tree did not change, so the restart did not sync it again.
        assert not second.bot.synced_commands


async def test_a_failed_commit_leaves_the_game_as_it_was(tmp_path, monkeypatch):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        before = await harness.session()
        shown = harness.message(live.id).snapshot()

        def broken(connection, statements):  # a batch begun, on whichever thread runs it
            connection.execute(statements[0].sql, statements[0].params)
            connection.execute("ROLLBACK")
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(database, "_run_begun_batch", broken)
        failed = await harness.click(anne, harness.message(live.id), "Roll")
        monkeypatch.undo()

        assert failed.ephemeral == (
            "Your move could not be saved, so nothing changed. Please try again."
        )
        assert harness.message(live.id).payload == shown.payload
        assert (await harness.session()) is before
        row = await harness.bot.sessions.store.get(before.id)
        assert row is not None and row.version == before.version
        assert await harness.bot.sessions.store.events(before.id) == []

        retried = await harness.click(anne, harness.message(live.id), "Roll")
        assert retried.edited


async def test_closing_the_bot_closes_the_database(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        await harness.slash(anne, "pickomino", "start")
        bot = harness.bot
    assert bot.is_closed()
    with pytest.raises(ValueError):
        await bot.db.fetchone("SELECT 1")
