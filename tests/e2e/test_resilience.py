"""End to end, when Discord or the host misbehaves: the real bot process against the
stand-in, with a reply lost to a SIGKILL between the commit and the answer, a 429 that
is retried, and a reply that fails for good after three 5xx answers. Each time the live
message ends up at the stored version (its buttons work), the database moved by exactly
the clicks that were committed, and no process logged an error or a traceback."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import sqlite3
import time
from pathlib import Path

import pytest

from bot.devserver.standin import INTENT_GUILDS, FakeDiscord, FakeInteraction, FakeMessage
from bot.render.custom_ids import ComponentRef
from tests.e2e.test_bot_e2e import (
    CB_DEFERRED_UPDATE,
    CB_UPDATE,
    BotLauncher,
    BotProcess,
    GameLog,
    accepted_click,
    choose,
    current_player,
    no_problems,
    open_lobby,
    roll_button,
)

pytestmark = pytest.mark.e2e

CALLBACK = r"^/interactions/\d+/[^/]+/callback$"


def stored_version(database: Path) -> int:
    with sqlite3.connect(database) as db:
        (version,) = db.execute("SELECT version FROM sessions WHERE status != 'over'").fetchone()
        return int(version)


def shown_versions(message: FakeMessage) -> set[int]:
    refs = (ComponentRef.parse(button.custom_id or "") for button in message.buttons)
    return {ref.version for ref in refs if ref is not None}


def live(fake: FakeDiscord, message_id: int) -> FakeMessage:
    message = fake.get_message(message_id)
    assert message is not None
    return message


async def game_in_play(fake: FakeDiscord, launcher: BotLauncher) -> tuple[BotProcess, int, int]:
    """A bot process with a started game: the process, the live message id, the version."""
    process = await launcher.start()
    message_id = await open_lobby(fake, GameLog())
    before = stored_version(launcher.database)
    assert shown_versions(live(fake, message_id)) == {before}
    return process, message_id, before


async def press_next(fake: FakeDiscord, message_id: int) -> None:
    """The player to move makes a move; the click must be shown in place."""
    message = live(fake, message_id)
    _, button = choose(message)
    await accepted_click(fake, current_player(fake, message), message_id, button)


async def roll_and_kill_before_the_answer(
    fake: FakeDiscord, process: BotProcess, message_id: int
) -> FakeInteraction:
    """The player to move rolls; the bot commits it and is SIGKILLed while its answer
    is held on the way, which then never reaches Discord. The click, unanswered."""
    held = fake.hold("POST", CALLBACK)
    message = live(fake, message_id)
    roll = roll_button(message)
    assert roll is not None
    player = current_player(fake, message)
    click = await fake.click(player, message_id, roll.custom_id, wait=False)
    await asyncio.wait_for(held.arrived.wait(), 10)
    await process.kill()
    held.drop()
    return click


async def test_a_reply_lost_to_a_kill_is_shown_after_the_restart(
    fake_discord: FakeDiscord, launcher: BotLauncher
) -> None:
    fake = fake_discord
    async with asyncio.timeout(120):
        first, message_id, before = await game_in_play(fake, launcher)

        # The bot commits the roll, then dies while its answer is on the way.
        await roll_and_kill_before_the_answer(fake, first, message_id)
        assert first.popen.returncode == -signal.SIGKILL
        assert stored_version(launcher.database) == before + 1  # committed...
        assert shown_versions(live(fake, message_id)) == {before}  # ...but not shown
        await fake.wait_for(lambda: not fake.ready, what="the stand-in to see the bot gone")

        # The new process shows the message at the stored version; its buttons work.
        await launcher.start()
        await fake.wait_for(
            lambda: shown_versions(live(fake, message_id)) == {before + 1},
            what="the live message to be shown again",
        )
        assert stored_version(launcher.database) == before + 1
        await press_next(fake, message_id)
        assert stored_version(launcher.database) == before + 2
    fake.take_rejections()  # the dropped reply's interaction was never answered
    no_problems(launcher)


async def test_a_click_a_killed_process_held_is_answered_by_the_next_one(
    fake_discord: FakeDiscord, launcher: BotLauncher
) -> None:
    """The bot commits a roll and dies before its answer reaches Discord, which will not
    send the click again. The next process, started at once, finds it in the journal of
    its predecessor's clicks in flight (bot.connection.inflight) and answers it within
    Discord's 3 s with the game as it is: the roll shown, and not rolled a second
    time."""
    fake = fake_discord
    async with asyncio.timeout(120):
        first, message_id, before = await game_in_play(fake, launcher)

        click = await roll_and_kill_before_the_answer(fake, first, message_id)
        assert stored_version(launcher.database) == before + 1  # committed, not answered

        second = await launcher.start()
        await click.wait_settled()
        # Acknowledged (its answer might have reached Discord before the kill after all),
        # then its message edited through the interaction's webhook.
        assert click.response_type == CB_DEFERRED_UPDATE, click.describe()
        assert click.latency is not None and click.latency < 3.0, click.describe()
        await fake.wait_for(
            lambda: shown_versions(live(fake, message_id)) == {before + 1},
            what="the roll to be shown",
        )
        assert stored_version(launcher.database) == before + 1, "the roll was played twice"
        assert "left unanswered by the process before" in second.log()
        # Acknowledged first of all, before the database was opened
        # (bot.connection.inflight).
        assert "acknowledged 1 of 1 interactions" in second.log()
        await press_next(fake, message_id)  # and the game goes on
        assert stored_version(launcher.database) == before + 2
    no_problems(launcher)


async def test_a_rate_limited_reply_is_retried(
    fake_discord: FakeDiscord, launcher: BotLauncher
) -> None:
    fake = fake_discord
    async with asyncio.timeout(60):
        _, message_id, before = await game_in_play(fake, launcher)
        fake.inject_rate_limit("POST", CALLBACK, retry_after=0.2)
        await press_next(fake, message_id)
        # Refused once with 429 (the answer that was then taken is recorded when its
        # request ends, which may be after the click was seen as accepted).
        answers = [r.status for r in fake.requests if "/callback" in r.path]
        assert answers.count(429) == 1, answers
        # Discord counts it toward its ban of invalid requests.
        assert [(r.status, r.injected) for r in fake.invalid_requests] == [(429, True)]
        assert stored_version(launcher.database) == before + 1
        assert shown_versions(live(fake, message_id)) == {before + 1}
        # The bot asks for the guilds intent only, so no edit of a live message comes
        # back to it as a MESSAGE_UPDATE to parse.
        assert fake.session is not None and fake.session.intents == INTENT_GUILDS
        events = {frame.get("t") for frame in fake.session.history}
        assert "MESSAGE_UPDATE" not in events and "INTERACTION_CREATE" in events
    no_problems(launcher)


async def test_a_reply_that_fails_for_good_is_repaired_through_the_channel(
    fake_discord: FakeDiscord, launcher: BotLauncher
) -> None:
    fake = fake_discord
    async with asyncio.timeout(90):
        _, message_id, before = await game_in_play(fake, launcher)
        # Three 5xx: discord.py retries after 1, 3 and 5 s, and its fourth try comes
        # after Discord's 3 s deadline, so the answer is refused as unknown (10062).
        fake.inject_error("POST", CALLBACK, status=503, times=3)
        message = live(fake, message_id)
        roll = roll_button(message)
        assert roll is not None
        click = await fake.click(
            current_player(fake, message), message_id, roll.custom_id, wait=False
        )
        await fake.wait_for(
            lambda: shown_versions(live(fake, message_id)) == {before + 1},
            timeout=30,
            what="the live message to be shown again through the channel",
        )
        assert click.response_type != CB_UPDATE  # the answer itself never got through
        assert stored_version(launcher.database) == before + 1
        rejected = fake.take_rejections(10062)
        assert rejected, "the late answer was not refused"
        await press_next(fake, message_id)  # the repaired buttons work
        assert stored_version(launcher.database) == before + 2
    no_problems(launcher)


async def test_a_restart_resumes_the_gateway_session_and_plays_a_click_made_meanwhile(
    fake_discord: FakeDiscord, launcher: BotLauncher
) -> None:
    """Stopped as a deploy stops it (SIGTERM), the bot leaves its gateway session open
    at Discord; the next process resumes it, and a click made while it was starting is
    replayed to it, played and answered within Discord's 3 s
    (bot.connection.gateway_resume)."""
    fake = fake_discord
    async with asyncio.timeout(120):
        first, message_id, before = await game_in_play(fake, launcher)
        assert await first.stop() == 0
        await fake.wait_for(lambda: not fake.ready, what="the stand-in to see the bot gone")

        starting = await launcher.connecting(launcher.start())
        message = live(fake, message_id)
        roll = roll_button(message)
        assert roll is not None
        click = await fake.click(
            current_player(fake, message), message_id, roll.custom_id, wait=False
        )
        assert fake.resumes == 0, "the click came after the RESUME: nothing was replayed"
        second = await starting
        await click.wait_settled()

        assert click.response_type == CB_UPDATE, click.describe()
        assert click.latency is not None and click.latency < 3.0, click.describe()
        assert stored_version(launcher.database) == before + 1
        assert shown_versions(live(fake, message_id)) == {before + 1}
        assert fake.identifies == 1 and fake.resumes == 1, "the session was not resumed"
        assert "resuming gateway session" in second.log()
    no_problems(launcher)


async def test_a_saved_session_that_cannot_be_resumed_is_replaced_by_a_new_one(
    fake_discord: FakeDiscord, launcher: BotLauncher
) -> None:
    """A session file left from before (its resume address gone, or Discord no longer
    keeping it) costs the start nothing but a line: the bot identifies afresh."""
    fake = fake_discord
    folder = launcher.workdir / "data" / "gateway"
    folder.mkdir(parents=True)
    gone = f"ws://127.0.0.1:{unused_port()}/resume"
    stale = {"session_id": "gone", "resume_url": gone, "sequence": 12, "saved_at": time.time()}
    stale["gateway"] = fake.gateway_url
    (folder / "shard-0-of-1.json").write_text(json.dumps(stale), encoding="utf-8")
    async with asyncio.timeout(60):
        first = await launcher.start()
        assert fake.identifies == 1 and fake.resumes == 0
        assert "cannot resume at " + gone in first.log()
        assert await first.stop() == 0

        # The session it opened is kept; one Discord has forgotten meanwhile (the
        # stand-in restarted, say) is answered INVALID_SESSION, and it identifies.
        fake.sessions.clear()
        second = await launcher.start()
        assert fake.identifies == 2 and fake.resumes == 0
        assert "resuming gateway session" in second.log()
    no_problems(launcher)


def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
