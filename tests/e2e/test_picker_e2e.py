"""End to end: a whole game of Picker with the real bot process against the local Discord
stand-in, with a SIGKILL in the middle of a round and /picker score history afterwards.

Buttons are found by what they do (their custom_id's click), not by their layout; whose
pick it is the test learns as a player would, from the refusal "It's Anne's turn." the
others get, so it also checks that every wrong click changes nothing.
"""

from __future__ import annotations

import asyncio
import signal
import time

import pytest

from bot.devserver.standin import FakeButton, FakeDiscord, FakeMessage
from tests.e2e.test_bot_e2e import (
    CB_DEFERRED_UPDATE,
    CB_UPDATE,
    DEADLINE,
    BotLauncher,
    message_behind,
)

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
ROUNDS = 2 * len(PLAYERS)
TEST_BUDGET = 150.0


def _button(message: FakeMessage, click: str) -> FakeButton:
    found = [b for b in message.buttons if f":{click}:" in (b.custom_id or "")]
    assert found, f"no {click} button on\n{message.render()}"
    return found[0]


def _dice(message: FakeMessage) -> list[FakeButton]:
    return [b for b in message.buttons if ":pick:" in (b.custom_id or "") and not b.disabled]


def _over(message: FakeMessage) -> bool:
    return any(":again:" in (b.custom_id or "") for b in message.buttons)


async def _pick(fake: FakeDiscord, message_id: int, picks: list[str]) -> None:
    """The player whose pick it is keeps the highest die; the others are refused first."""
    message = fake.get_message(message_id)
    assert message is not None
    die = max(_dice(message), key=lambda button: int(button.label or 0))
    for name in PLAYERS:
        before = (message.components, message.edits)
        edits = message.edits
        click = await fake.click(name, message_id, die.custom_id)
        if click.response_type in (CB_UPDATE, CB_DEFERRED_UPDATE):
            if click.response_type == CB_DEFERRED_UPDATE:
                await fake.wait_for(lambda e=edits: message.edits > e, what="the pick to show")
            picks.append(name)
            return
        await click.wait_quiet(0.05)
        assert click.ephemeral and "turn" in click.text, click.describe()
        assert (message.components, message.edits) == before, "a refused click changed it"
    raise AssertionError(f"nobody could pick on\n{message.render()}")


async def test_a_picker_game_with_sigkill_restart_and_history(
    fake_discord: FakeDiscord,
    launcher: BotLauncher,
) -> None:
    fake = fake_discord
    began = time.monotonic()
    async with asyncio.timeout(TEST_BUDGET):
        first = await launcher.start()
        started = await fake.send_command("alice", "picker start", {"turn_timer": 0})
        lobby = started.message
        assert lobby is not None and not started.ephemeral, started.describe()
        for name in PLAYERS[1:]:
            await fake.click(name, lobby.id, _button(lobby, "join").custom_id)
        await fake.click("alice", lobby.id, _button(lobby, "start").custom_id)
        assert len(_dice(lobby)) == len(PLAYERS), lobby.render()

        picks: list[str] = []
        await _pick(fake, lobby.id, picks)  # round 1: the first die of three
        kept_before = lobby.components

        await first.kill()
        assert first.popen.returncode == -signal.SIGKILL
        await fake.wait_for(lambda: not fake.ready, what="the stand-in to see the bot gone")
        # A kill within a second of a click leaves its message marked as behind: the new
        # process shows it again (same content) before anyone clicks.
        edits_at_kill = lobby.edits
        shown_again = message_behind(launcher.database)
        second = await launcher.start()
        if shown_again:
            await fake.wait_for(lambda: lobby.edits > edits_at_kill, what="the start-up repair")
        assert lobby.components == kept_before, "the restart changed the live message"
        assert len(_dice(lobby)) == len(PLAYERS) - 1, "the pick before the kill was lost"

        while not _over(lobby):
            await _pick(fake, lobby.id, picks)
        assert len(picks) == ROUNDS * len(PLAYERS)
        assert fake.live_message().id == lobby.id

        history = await fake.send_command("carol", "picker score history")
        assert (history.answered and not history.ephemeral_messages) or history.text
        for name in PLAYERS:
            assert fake.user(name).display_name in history.text, history.describe()
        pickomino = await fake.send_command("carol", "pickomino score history")
        assert fake.user("alice").display_name not in pickomino.text, pickomino.describe()

    late = [i.describe() for i in fake.interactions if (i.latency or DEADLINE) >= DEADLINE]
    assert not late, "unanswered or late interactions:\n" + "\n".join(late)
    assert await second.stop() == 0, second.log()
    problems = [line for process in launcher.processes for line in process.problems()]
    assert not problems, "\n".join(problems)
    print(
        f"picker e2e: {len(picks)} picks, {len(fake.interactions)} interactions, "
        f"{time.monotonic() - began:.1f} s"
    )
    print(
        f"picker e2e: {len(picks)} picks, {len(fake.interactions)} interactions, "
        f"{time.monotonic():.0f}"
    )
