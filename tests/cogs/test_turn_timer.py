"""The turn timer: a ping at half time, the turn ended at expiry, three strikes remove."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.sessions.timers import TimerWheel
from tests.cogs.helpers import start_game
from tests.discord_harness import CHANNEL_ID, BotHarness

CREATE = ("POST", "/channels/{channel_id}/messages")


def _reminders(harness: BotHarness) -> list[Any]:
    """The half-time reminders sent (the turn pings are new messages too): follow-ups of
    the freshest click, or channel messages where no token is fresh."""
    sent = [*harness.fake.sent(*CREATE), *harness.fake.sent(*FOLLOWUP)]
    return [r for r in sent if "half of your time" in (r.payload.get("content") or "")]


EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
FOLLOWUP = ("POST", "/webhooks/{webhook_id}/{webhook_token}")
WEBHOOK_EDIT = ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def _tick(harness: BotHarness, clock: Clock, seconds: float) -> None:
    clock.now += seconds
    await harness.bot.sessions.run_timer(CHANNEL_ID)
    await harness.settle()


async def test_half_time_ping_then_the_turn_ends_for_the_player(tmp_path):
    clock = Clock()
    async with BotHarness.running(tmp_path / "bot.db", clock=clock) as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host", turn_timer=60)
        assert "⏳ <t:" in harness.message(live.id).text()
        version = (await harness.session()).version

        await _tick(harness, clock, 20)  # nothing due yet
        assert _reminders(harness) == []

        await _tick(harness, clock, 11)
        [ping] = _reminders(harness)
        assert f"<@{anne.id}>" in ping.payload["content"]
        assert (await harness.session()).version == version  # buttons stay valid
        await _tick(harness, clock, 1)
        assert len(_reminders(harness)) == 1  # pinged once

        await _tick(harness, clock, 30)
        session = await harness.session()
        assert session.version == version + 1
        assert session.game.current_player == str(bob.id)
        assert "Anne ran out of time" in harness.message(live.id).text()
        # Nobody clicked for it: edited through the Start click's webhook, not the token.
        assert harness.fake.sent(*WEBHOOK_EDIT) and not harness.fake.sent(*EDIT)


async def test_three_expiries_in_a_row_remove_the_player(tmp_path):
    clock = Clock()
    async with BotHarness.running(tmp_path / "bot.db", clock=clock) as harness:
        anne, bob, cleo = harness.user("Anne"), harness.user("Bob"), harness.user("Cleo")
        live = await start_game(harness, [anne, bob, cleo], first_player="host", turn_timer=60)
        for _ in range(6):  # Anne, Bob, Cleo time out twice each
            await _tick(harness, clock, 30)
            await _tick(harness, clock, 30)
        session = await harness.session()
        assert session.clock.strikes == {str(anne.id): 2, str(bob.id): 2, str(cleo.id): 2}

        await _tick(harness, clock, 30)
        await _tick(harness, clock, 30)  # Anne's third
        session = await harness.session()
        assert str(anne.id) not in session.game.players
        assert "Anne left the game" in harness.message(live.id).text()

        # Bob plays for himself: his count starts again.
        await harness.click(bob, harness.message(live.id), "Roll")
        assert (await harness.session()).clock.strikes.get(str(bob.id)) is None


async def test_deadlines_survive_a_restart(tmp_path):
    clock = Clock()
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, clock=clock, close=False) as first:
        anne, bob = first.user("Anne"), first.user("Bob")
        await start_game(first, [anne, bob], first_player="host", turn_timer=60)
        armed = first.bot.sessions.timers.pending()
        fake = first.fake
    async with BotHarness.running(database, clock=clock, fake=fake) as second:
        assert second.bot.sessions.timers.pending() == armed
        await _tick(second, clock, 61)  # the stored deadline passes: half time and expiry
        await _tick(second, clock, 0)
        session = await second.session()
        assert session.game.current_player == str(bob.id)


async def test_the_timer_wheel_fires_once_at_the_instant():
    fired: list[int] = []

    async def fire(key: int) -> None:
        fired.append(key)

    wheel = TimerWheel(fire)
    wheel.set(1, time.time() + 0.02)
    wheel.set(2, time.time() + 0.02)
    wheel.set(2, None)  # cancelled
    wheel.set(3, time.time() + 0.01)
    wheel.set(3, time.time() + 0.03)  # replaced
    await asyncio.sleep(0.1)
    assert sorted(fired) == [1, 3]
    assert wheel.pending() == {}
    await wheel.close()


async def test_a_held_wheel_fires_what_came_due_only_once_released():
    fired: list[int] = []
    late: list[float] = []

    async def fire(key: int) -> None:
        fired.append(key)

    wheel = TimerWheel(fire, lateness=late.append)
    wheel.hold()
    wheel.set(1, time.time() - 1)  # due already
    wheel.set(2, time.time() + 0.01)
    await asyncio.sleep(0.05)
    assert fired == []
    wheel.set(1, None)  # cancelled while held: never fires
    wheel.release()
    await asyncio.sleep(0.02)
    assert fired == [2]
    assert late and late[0] >= 0.03  # the hold counts as lateness
    await wheel.close()


async def test_timers_due_while_held_fire_one_at_a_time_after_the_release():
    fired: list[tuple[int, float]] = []
    loop = asyncio.get_running_loop()

    async def fire(key: int) -> None:
        fired.append((key, loop.time()))

    wheel = TimerWheel(fire, held_fired_a_second=50)  # one every 20 ms
    wheel.hold()
    for key in range(5):
        wheel.set(key, time.time() - 10 + key)  # all due, the oldest first
    await asyncio.sleep(0.02)
    released = loop.time()
    wheel.release()
    wheel.set(9, time.time())  # due after the release: not held, so not paced
    await asyncio.sleep(0.2)
    when = dict(fired)
    assert [key for key, _ in fired if key != 9] == [0, 1, 2, 3, 4]  # in the order due
    assert when[9] - released < 0.015  # at once, beside the held ones
    held_times = [at - released for key, at in fired if key != 9]
    assert held_times[0] < 0.015
    # Paced: the n-th in its slot, n x 20 ms after the first, never sooner (a late
    # wake-up on a busy machine shortens the gap to the next, which keeps its slot).
    since_first = [at - held_times[0] for at in held_times]
    assert all(at >= n * 0.02 - 0.001 for n, at in enumerate(since_first)), since_first
    await wheel.close()


async def test_the_timer_wheel_reports_how_late_each_timer_woke():
    late: list[float] = []

    async def fire(key: int) -> None:
        return None

    wheel = TimerWheel(fire, lateness=late.append)
    wheel.set(1, time.time() + 0.01)
    wheel.set(2, time.time() - 5)  # already due: it wakes at once, 5 s late
    await asyncio.sleep(0.05)
    assert len(late) == 2
    assert 0 <= min(late) < 1 and 5 <= max(late) < 6
    await wheel.close()


def _in_channel(harness: BotHarness, words: str) -> list[Any]:
    """The channel's messages whose text holds `words` (deleted ones are gone)."""
    found = [harness.fake.messages.get(i) for i in harness.fake.channel_log.get(CHANNEL_ID, [])]
    return [m for m in found if m and not m.ephemeral and words in m.content]


async def test_the_reminder_replaces_the_ping_and_goes_when_the_turn_ends(tmp_path):
    clock = Clock()
    async with BotHarness.running(tmp_path / "bot.db", clock=clock) as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host", turn_timer=60)
        [ping] = _in_channel(harness, "your turn in Pickomino.")
        await _tick(harness, clock, 31)
        [reminder] = _in_channel(harness, "half of your time")
        assert ping.id in harness.fake.deleted  # one mention of the turn at a time
        assert _in_channel(harness, "your turn in Pickomino.") == []

        await harness.click(anne, harness.message(live.id), "Roll")  # the same turn
        assert _in_channel(harness, "half of your time") == [reminder]
        await _tick(harness, clock, 30)  # Anne's time is up: Bob's turn
        assert reminder.id in harness.fake.deleted
        [bobs] = _in_channel(harness, "your turn in Pickomino.")
        assert bobs.content.startswith(f"<@{bob.id}>")

        await _tick(harness, clock, 31)  # Bob's reminder, then the game ends
        [bobs_reminder] = _in_channel(harness, "half of your time")
        end = await harness.slash(anne, "pickomino", "end")
        await harness.click(anne, end.message, "End the game")
        assert bobs_reminder.id in harness.fake.deleted
        assert _in_channel(harness, "<@") == []  # nothing left that mentions anyone


async def test_a_reminder_from_before_a_restart_goes_when_its_turn_ends(tmp_path):
    clock = Clock()
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, clock=clock, close=False) as first:
        anne, bob = first.user("Anne"), first.user("Bob")
        await start_game(first, [anne, bob], first_player="host", turn_timer=60)
        await _tick(first, clock, 31)
        [reminder] = _in_channel(first, "half of your time")
        fake = first.fake
    async with BotHarness.running(database, clock=clock, fake=fake, seed=5) as second:
        assert await second.bot.ping_cleanup == 0  # Anne's turn goes on: it stays
        rows = await second.bot.db.fetchall("SELECT message_id FROM turn_pings")
        assert [int(row["message_id"]) for row in rows] == [reminder.id]  # the stored record
        await _tick(second, clock, 30)
        assert reminder.id in fake.deleted
        assert _in_channel(second, "half of your time") == []


async def test_closing_the_wheel_waits_for_the_timer_firing_and_arms_no_other():
    """A computer player's step re-arms the next as it commits: closed mid-step, the
    wheel lets that step finish and arms nothing after it."""
    steps: list[str] = []
    stepping = asyncio.Event()
    wheel: TimerWheel

    async def fire(key: int) -> None:
        steps.append("began")
        stepping.set()
        await asyncio.sleep(0.05)  # the move, the commit, the edit
        wheel.set(key, time.time())  # the next step, due at once
        steps.append("done")

    wheel = TimerWheel(fire)
    wheel.set(1, time.time())
    await stepping.wait()
    await wheel.close()
    assert steps == ["began", "done"]
    assert wheel.pending() == {}
    wheel.set(2, time.time())  # a click's change, committed after the close
    await asyncio.sleep(0.05)
    assert steps == ["began", "done"] and wheel.pending() == {}
    assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("turn-timer-")]


async def test_a_timer_firing_longer_than_the_close_allows_is_cancelled():
    cancelled = asyncio.Event()
    stepping = asyncio.Event()

    async def fire(key: int) -> None:
        stepping.set()
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    wheel = TimerWheel(fire)
    wheel.set(1, time.time())
    await stepping.wait()
    began = time.monotonic()
    await wheel.close(timeout=0.05)
    assert cancelled.is_set() and time.monotonic() - began < 1
