"""End to end, the bot's permissions in a channel against the stand-in's: a start where
the bot may not post (or attach its end picture) is refused, naming the permission, and
opens nothing. (A permission taken away mid-game and given back is tested through the
real handlers in tests/cogs/test_permissions.py.)"""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.devserver.standin import FakeDiscord
from bot.devserver.standin.permissions import PERM_ATTACH_FILES, PERM_SEND_MESSAGES
from tests.e2e.test_bot_e2e import (
    TEST_BUDGET,
    BotLauncher,
    GameLog,
    no_problems,
    open_lobby,
    play,
)

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


async def test_a_permission_taken_away_mid_game_and_given_back_loses_nothing(
    fake_discord: FakeDiscord, launcher: BotLauncher
) -> None:
    fake = fake_discord
    deadline = time.monotonic() + TEST_BUDGET
    async with asyncio.timeout(TEST_BUDGET + 30):
        await launcher.start()
        log = GameLog()
        message_id = await open_lobby(fake, log)
        await fake.deny(PERM_SEND_MESSAGES)
        paused_clicks = 0
        while paused_clicks < 12:  # clicks while the bot may not post: the game goes on
            stopped = await play(fake, message_id, log, deadline=deadline, pause=every_click)
            paused_clicks += 1
            assert stopped is not None, "the game ended before the permission came back"
        # Its pings went as follow-ups of the clicks (interaction tokens need no channel
        # permission): nothing was refused, and no bot-token request went to the channel.
        assert fake.take_rejections(50013) == []
        await fake.grant(PERM_SEND_MESSAGES)
        await play(fake, message_id, log, deadline=deadline)  # to the end
    final = fake.get_message(message_id)
    assert final is not None and final.has_button("Play again"), final
    no_problems(launcher)


def every_click(message: object, kind: str) -> bool:
    return True
