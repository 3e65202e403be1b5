"""End to end: the bot process with the table on (DISCORD_CLIENT_SECRET), against the
stand-in as Discord is, Activities enabled in its portal: the sync replaces the portal's
Entry Point with the table's (its body checked against Discord's OpenAPI spec), and
Open the table on the lobby and the App Launcher's Entry Point each open the channel's
activity instance (LAUNCH_ACTIVITY), within Discord's 3 s."""

from __future__ import annotations

import pytest

from bot.devserver.standin import FakeDiscord
from bot.i18n import t
from tests.e2e.test_bot_e2e import DEADLINE, BotLauncher, no_problems

pytestmark = pytest.mark.e2e

LAUNCH_ACTIVITY = 12


async def test_the_table_opens_from_the_lobby_and_from_the_app_launcher(
    fake_discord: FakeDiscord, launcher: BotLauncher
) -> None:
    fake_discord.enable_activities()  # the portal's "launch" (Discord's own handler)
    await launcher.start({"DISCORD_CLIENT_SECRET": fake_discord.client_secret})
    await fake_discord.wait_for(
        lambda: (fake_discord.entry_point() or {}).get("name") == "table",
        what="the table's Entry Point in place of the portal's",
    )
    entry = fake_discord.entry_point()
    assert entry is not None and entry["handler"] == 1

    started = await fake_discord.send_command("alice", "pickomino start", {"turn_timer": 0})
    lobby = started.message
    assert lobby is not None
    opened = await fake_discord.click("bob", lobby.id, label=t("table.launch.button"))
    assert opened.response_type == LAUNCH_ACTIVITY, opened.describe()
    assert opened.latency is not None and opened.latency < DEADLINE
    edits = lobby.edits
    launched = await fake_discord.use_entry_point("carol")
    assert launched is not None and launched.response_type == LAUNCH_ACTIVITY
    assert launched.activity_instance_id == opened.activity_instance_id  # carol joined bob
    instance = fake_discord.activity_instance(opened.activity_instance_id or "")
    assert instance is not None
    assert instance.users == [fake_discord.user("bob").id, fake_discord.user("carol").id]
    assert lobby.edits == edits  # nothing changed
    no_problems(launcher)
