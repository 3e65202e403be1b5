"""Opening the table (the games as a Discord Activity) from Discord: Open the table on
the lobby and on a game in play, and the App Launcher's Entry Point, each answered with
LAUNCH_ACTIVITY (callback type 12) and changing nothing; where the table is off, no
button, and the Entry Point's use is told so in the person's language."""

from __future__ import annotations

import logging
import time

import pytest

from tests.cogs.helpers import open_lobby, start_game
from tests.discord_harness import CHANNEL_ID, BotHarness, PrivateChat, StoredMessage

LAUNCH_ACTIVITY = 12
OPEN = "Open the table"


def _tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def table_buttons(message: StoredMessage) -> list[str]:
    return [b["custom_id"] for b in message.buttons if b["custom_id"].startswith("pko:table:")]


async def test_with_the_table_off_nothing_offers_it(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        lobby = await open_lobby(harness, anne)
        assert table_buttons(lobby) == []
        await harness.click(bob, harness.message(lobby.id), "Join")
        await harness.click(anne, harness.message(lobby.id), "Start")
        assert table_buttons(harness.message(lobby.id)) == []


async def test_open_the_table_on_the_lobby_launches_and_changes_nothing(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db", table=True) as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        lobby = await open_lobby(harness, anne)
        session = await harness.session()
        (custom_id,) = table_buttons(lobby)
        assert custom_id == f"pko:table:{session.id}:{session.version}"
        assert OPEN in lobby.labels()
        before = harness.message(lobby.id).payload["components"]
        began = time.perf_counter()
        result = await harness.click(bob, harness.message(lobby.id), OPEN)
        assert result.answered_at is not None and result.answered_at - began < 3
        assert result.kinds == [LAUNCH_ACTIVITY]  # its only answer
        assert result.launched == f"i-{CHANNEL_ID + 1}-gc-{session.guild_id}-{CHANNEL_ID}"
        assert result.messages == [] and result.followups == []
        assert harness.message(lobby.id).payload["components"] == before
        after = await harness.session()
        assert after.version == session.version and after.seats == session.seats
        assert _tracebacks(caplog) == []


@pytest.mark.parametrize("game", ["pickomino", "picker"])
async def test_open_the_table_on_a_game_in_play_launches(tmp_path, game):
    async with BotHarness.running(tmp_path / "bot.db", table=True) as harness:
        anne, bob, cleo = harness.user("Anne"), harness.user("Bob"), harness.user("Cleo")
        started = await harness.slash(anne, game, "start", turn_timer=0)
        live = started.message
        for person in (bob, cleo):
            await harness.click(person, harness.message(live.id), "Join")
        await harness.click(anne, harness.message(live.id), "Start")
        playing = harness.message(live.id)
        session = await harness.session()
        assert table_buttons(playing) == [f"pko:table:{session.id}:{session.version}"]
        watcher = harness.user("Dora")  # not at the table: may open it and watch
        result = await harness.click(watcher, playing, OPEN)
        assert result.kinds == [LAUNCH_ACTIVITY] and result.launched is not None
        assert (await harness.session()).version == session.version


async def test_the_button_is_in_the_games_language(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db", table=True) as harness:
        anne = harness.user("Anne", locale="de")
        lobby = await open_lobby(harness, anne)
        assert "Tisch öffnen" in lobby.labels()


async def test_an_old_or_forged_open_the_table_is_refused_politely(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db", table=True) as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        session = await harness.session()
        for custom_id, reply in [
            ("pko:table:abc", "not one of this bot's"),  # malformed
            ("pko:table:777:0", "That game is over"),  # no such session
            (f"pko:table:{session.id + 1}:0", "That game is over"),  # not this channel's
        ]:
            message = harness.message(live.id).snapshot()
            message.rows[0][0]["custom_id"] = custom_id
            result = await harness.click(anne, message, custom_id)
            assert result.kinds != [LAUNCH_ACTIVITY], custom_id
            assert reply in (result.ephemeral or ""), (custom_id, result.ephemeral)
        # A copy of the live message that is not the live one (an older post).
        copy = harness.message(live.id).snapshot()
        copy.payload["id"] = str(int(copy.payload["id"]) + 1)
        result = await harness.click(anne, copy, OPEN)
        assert "old copy" in (result.ephemeral or "")
        assert (await harness.session()).version == session.version
        assert _tracebacks(caplog) == []


async def test_the_entry_point_launches_the_table(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db", table=True) as harness:
        anne = harness.user("Anne")
        result = await harness.use_entry_point(anne)  # no game in the channel yet
        assert result.kinds == [LAUNCH_ACTIVITY] and result.launched is not None
        assert await harness.session() is None  # nothing opened by the launch itself
        # Outside servers too, where the app is the person's: a DM.
        chat = PrivateChat(CHANNEL_ID + 5)
        in_dm = await harness.use_entry_point(anne, channel_id=chat.channel_id, private=chat)
        assert in_dm.kinds == [LAUNCH_ACTIVITY]
        assert _tracebacks(caplog) == []


async def test_with_the_table_off_the_entry_point_says_so_in_the_persons_language(tmp_path, caplog):
    # The table was on (its Entry Point registered), then the secret was taken away.
    async with BotHarness.running(tmp_path / "bot.db", table=True) as first:
        fake = first.fake
    async with BotHarness.running(tmp_path / "bot.db", fake=fake) as harness:
        assert fake.entry_point() is not None
        jan = harness.user("Jan", locale="pl")
        result = await harness.use_entry_point(jan)
        assert result.kinds == [4]  # a message, only for them
        assert result.ephemeral == (
            "Stół nie jest skonfigurowany dla tego bota: grajcie przyciskami na czacie."
        )
        assert _tracebacks(caplog) == []


async def test_an_entry_point_launch_that_discord_refuses_is_told_not_a_traceback(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db", table=True) as harness:
        harness.fake.fail["/interactions/{webhook_id}/{webhook_token}/callback"] = 500
        anne = harness.user("Anne")
        result = await harness.use_entry_point(anne)
        assert "Something went wrong" in (result.ephemeral or "")
