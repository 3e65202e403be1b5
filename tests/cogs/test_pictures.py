"""Dice and tiles as pictures: the application's emojis are uploaded at start-up in the
background, used once there, and a failure leaves the Unicode text and the bot working."""

from __future__ import annotations

import re

import pytest

from bot.render.emoji import use_book
from tests.cogs.helpers import start_game
from tests.discord_harness import BotHarness

EMOJI_ROUTE = "/applications/{application_id}/emojis"


@pytest.fixture(autouse=True)
def unicode_afterwards():
    yield
    use_book(None)  # the book is process-wide: later tests draw with text again


async def test_the_pictures_are_uploaded_once_and_drawn(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db", emoji_sync=True) as harness:
        assert harness.bot.emoji_sync is not None
        result = await harness.bot.emoji_sync
        assert result is not None and result.complete and len(result.uploaded) == 25
        assert "pk1_die_worm" in harness.fake.emojis and "pk1_tile_36" in harness.fake.emojis
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        grill = live.text_displays[1].split("\n")[0]  # after the turn, above the players
        assert re.fullmatch(r"(<:pk1_tile_\d\d:\d+>){16}", grill)  # tiles, in a row
        rolled = await harness.click(anne, harness.message(live.id), "Roll")
        faces = [b for b in rolled.message.buttons if ":keep:" in b["custom_id"]]
        assert faces and all(b["emoji"]["name"].startswith("pk1_die_") for b in faces)
        assert all(b["emoji"]["id"] for b in faces)

    # A second start finds them all: nothing is uploaded again.
    posts = len(harness.fake.sent("POST", EMOJI_ROUTE))
    async with BotHarness.running(tmp_path / "bot.db", fake=harness.fake, emoji_sync=True) as again:
        result = await again.bot.emoji_sync
        assert result is not None and len(result.found) == 25 and result.uploaded == ()
        assert len(again.fake.sent("POST", EMOJI_ROUTE)) == posts


async def test_a_refused_upload_leaves_the_text_and_the_bot_running(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db", emoji_sync=True) as harness:
        harness.fake.fail[EMOJI_ROUTE] = 403
        assert harness.bot.emoji_sync is not None
        result = await harness.bot.emoji_sync
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        assert result is not None and not result.complete
        assert "<:pk1_" not in live.text() and "**21**" in live.text()


async def test_emojis_deleted_in_the_portal_fall_back_and_are_uploaded_again(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db", emoji_sync=True) as harness:
        await harness.bot.emoji_sync
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        harness.fake.emojis.clear()  # deleted by hand: Discord refuses their ids now

        rolled = await harness.click(anne, harness.message(live.id), "Roll")
        assert rolled.ephemeral is None and rolled.edited  # answered, with Unicode faces
        faces = [b for b in rolled.message.buttons if ":keep:" in b["custom_id"]]
        assert faces and not any((b.get("emoji") or {}).get("id") for b in faces)
        assert "refused an emoji" in caplog.text

        resynced = await harness.bot.emoji_sync  # the set was synced again meanwhile
        assert resynced is not None and len(resynced.uploaded) == 25
        keep = faces[0]["custom_id"]
        kept = await harness.click(anne, harness.message(live.id), keep)
        assert kept.edited and re.search(r"<:pk1_tile_\d\d:\d+>", kept.message.text())


async def test_the_stored_emojis_of_another_application_are_not_used(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db", emoji_sync=True) as harness:
        await harness.bot.emoji_sync
    use_book(None)
    fake = harness.fake
    fake.application_id += 1  # the same database, another application
    fake.emojis.clear()  # whose emojis are its own: none yet
    async with BotHarness.running(tmp_path / "bot.db", fake=fake, emoji_sync=False) as again:
        anne, bob = again.user("Anne"), again.user("Bob")
        live = await start_game(again, [anne, bob], first_player="host")
        assert "<:pk1_tile" not in again.message(live.id).text()  # Unicode, no foreign ids
        rolled = await again.click(anne, again.message(live.id), "Roll")
        assert rolled.edited and rolled.ephemeral is None
