"""End to end, the bot's permissions in a channel against the stand-in's: a start where
the bot may not post (or attach its end picture) is refused, naming the permission, and
opens nothing. (A permission taken away mid-game and given back is tested through the
real handlers in tests/cogs/test_permissions.py.)"""

from __future__ import annotations

import pytest

from bot.devserver.standin import FakeDiscord
from bot.devserver.standin.permissions import PERM_ATTACH_FILES, PERM_SEND_MESSAGES
from tests.e2e.test_bot_e2e import BotLauncher, no_problems

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("denied", "named"),
    [(PERM_SEND_MESSAGES, "Send Messages"), (PERM_ATTACH_FILES, "Attach Files")],
)
async def test_a_start_where_the_bot_lacks_a_permission_is_refused(
    fake_discord: FakeDiscord, launcher: BotLauncher, denied: int, named: str
) -> None:
    fake = fake_discord
    await launcher.start()
    await fake.deny(denied)
    started = await fake.send_command("alice", "pickomino start", {"turn_timer": 0})
    assert started.ephemeral, started.describe()  # to the person alone...
    assert named in started.text, started.describe()  # ...naming what is missing
    public = [m for m in fake.channel_messages() if not m.is_ephemeral()]
    assert public == []  # no lobby
    assert fake.invalid_requests == []  # and no request Discord would refuse
    no_problems(launcher)
