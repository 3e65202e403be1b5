"""Forged and malformed custom_ids, and commands from outside a server: each gets a polite
ephemeral refusal, changes nothing and leaves no traceback in the log."""

from __future__ import annotations

import logging

import pytest

from bot.sessions.model import Place
from tests.cogs.helpers import start_game
from tests.discord_harness import BUTTON, BotHarness

FORGED = [
    "pko:explode:1:16",  # an unknown action
    "pko:zzz:1:16:roll",
    "pko:again:10000000000000000000000000:16",  # a number SQLite cannot store
    "pko:move:1:99999999999999999999:roll",
    "pko:move:-1:3:roll",  # negative
    "pko:move:1:3:keep:ünï",  # unicode
    "pko:" + "x" * 96,  # a hundred characters
    "pko:move:0:3:roll",  # no session has id 0
    "pko:move:777:3:roll",  # another (unknown) session
]


def _tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@pytest.mark.parametrize("custom_id", FORGED)
async def test_a_forged_custom_id_is_refused_and_changes_nothing(tmp_path, caplog, custom_id):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        version = (await harness.session()).version
        message = harness.message(live.id).snapshot()
        message.rows[0][0]["custom_id"] = custom_id  # the first button, Roll
        payload = harness.click_payload(anne, message, custom_id)
        assert payload["data"] == {"custom_id": custom_id, "component_type": BUTTON}

        result = await harness.dispatch(payload)

        assert result.ephemeral, "every forged id gets an answer"
        assert not result.edited
        assert (await harness.session()).version == version
        assert _tracebacks(caplog) == []


async def test_a_click_on_another_channels_game_is_refused(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        version = (await harness.session()).version
        elsewhere = harness.message(live.id).snapshot()
        elsewhere.payload["channel_id"] = str(live.channel_id + 1)

        result = await harness.click(anne, elsewhere, "Roll")

        assert result.ephemeral and not result.edited
        assert (await harness.session()).version == version
        assert _tracebacks(caplog) == []


async def test_commands_in_the_bots_dm_play_solo_against_a_computer(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        for path in (("status",), ("leave",), ("end",)):  # no game there yet
            result = await harness.slash_in_dm(anne, "pickomino", *path)
            assert "There is no Pickomino game" in (result.ephemeral or "")
        opened = await harness.slash_in_dm(anne, "pickomino", "start")
        session = await harness.session()
        assert session is not None and session.place is Place.BOT_DM
        assert session.guild_id == 0  # no server: DMs belong to shard 0
        assert session.community_id == session.channel_id  # its history is the chat's
        # Nobody else can join the bot's DM: a computer player is seated already.
        assert [seat.is_bot for seat in session.seats] == [False, True]
        assert "Start" in [button.get("label") for button in opened.message.buttons]
        assert _tracebacks(caplog) == []
