"""A click committed but never shown (the reply failed, or the bot died before it) leaves
no stranded game: the live message is shown again at its session's version, at once or
at start-up, and its buttons work."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from bot.connection.inflight import Replayed
from bot.render.custom_ids import ComponentRef
from bot.sessions.model import Ending, Status
from bot.sessions.service import SessionService
from bot.ui.callback import defer_update
from bot.ui.live import LiveMessages
from tests.cogs.helpers import add_bots, start_game
from tests.discord_harness import BotHarness, StoredMessage

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
# An earlier click's token edits the live message too (bot.ui.click_tokens).
WEBHOOK_EDIT = ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")


def _edits(harness: BotHarness) -> int:
    """Edits of a message not made as the answer to a click: through the channel, or
    through the webhook of an earlier click."""
    return len(harness.fake.sent(*EDIT)) + len(harness.fake.sent(*WEBHOOK_EDIT))


def _tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def _versions(message: StoredMessage) -> set[int]:
    """The session versions the message's buttons carry."""
    refs = (ComponentRef.parse(button["custom_id"]) for button in message.buttons)
    return {ref.version for ref in refs if ref is not None}


@pytest.mark.parametrize(("status", "why"), [(404, "a late answer (10062)"), (503, "a 5xx")])
async def test_a_failed_reply_is_repaired(tmp_path, caplog, status, why):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        before = await harness.session()
        assert _versions(harness.message(live.id)) == {before.version}

        harness.fake.fail[CALLBACK] = status  # Discord refuses the click's answer
        rolled = await harness.click(anne, harness.message(live.id), "Roll")
        assert rolled.callbacks == [], why

        after = await harness.session()
        assert after.version == before.version + 1  # committed
        # ...and shown anyway, by an edit through the channel or the webhook of the
        # click before (the Start button): the buttons work.
        assert _edits(harness) == 1
        assert _versions(harness.message(live.id)) == {after.version}
        keep = next(b for b in harness.message(live.id).enabled() if ":keep:" in b["custom_id"])
        kept = await harness.click(anne, harness.message(live.id), keep["custom_id"])
        assert kept.edited and kept.ephemeral is None
        assert (await harness.session()).version == after.version + 1
        assert _tracebacks(caplog) == []


async def test_a_click_committed_before_a_kill_is_shown_at_start_up(tmp_path, caplog, monkeypatch):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, close=False) as first:  # then "kill -9"
        anne, bob = first.user("Anne"), first.user("Bob")
        live = await start_game(first, [anne, bob], first_player="host")
        shown_before = first.message(live.id).snapshot()

        async def die(*args: object) -> None:  # the process ends before its reply
            raise asyncio.CancelledError

        monkeypatch.setattr(LiveMessages, "reply_edit", die)
        await first.click(anne, first.message(live.id), "Roll")
        monkeypatch.undo()
        committed = await first.session()
        fake = first.fake
    # Stranded: the message still carries the buttons of the version before.
    assert fake.messages[live.id].payload == shown_before.payload
    assert _versions(fake.messages[live.id]) == {committed.version - 1}

    async with BotHarness.running(database, fake=fake, seed=5) as second:
        assert await second.bot.startup_repair == 1
        assert (await second.session()).version == committed.version  # nothing advanced
        message = second.message(live.id)
        assert _versions(message) == {committed.version}
        keep = next(b for b in message.enabled() if ":keep:" in b["custom_id"])
        kept = await second.click(anne, message, keep["custom_id"])
        assert kept.edited and kept.ephemeral is None
        assert (await second.session()).version == committed.version + 1

    # A clean restart has nothing to show again.
    async with BotHarness.running(database, fake=fake, seed=6) as third:
        assert await third.bot.startup_repair == 0
    assert _tracebacks(caplog) == []


async def test_a_restart_answers_its_replayed_clicks_before_it_repairs_or_syncs(
    tmp_path, caplog, monkeypatch
):
    """Discord replays the clicks made while the process was down
    (bot.connection.gateway_resume) with under a second of their 3 s left: the repairs,
    the command sync and the tables wait until those are answered."""
    caplog.set_level(logging.INFO, "bot.app.client")
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, close=False) as first:
        anne, bob = first.user("Anne"), first.user("Bob")
        live = await start_game(first, [anne, bob], first_player="host")

        async def die(*args: object) -> None:
            raise asyncio.CancelledError

        monkeypatch.setattr(LiveMessages, "reply_edit", die)
        await first.click(anne, first.message(live.id), "Roll")
        monkeypatch.undo()
        fake = first.fake
    asked_commands = ("GET", "/applications/{application_id}/commands")
    syncs = len(fake.sent(*asked_commands))

    async with BotHarness.running(database, fake=fake, caught_up=False) as second:
        bot = second.bot
        answered = asyncio.Event()

        async def replayed_click() -> None:  # as discord.py names a click's task
            await answered.wait()
            await second.click(bob, second.message(live.id), "Roll")  # not his turn

        click = asyncio.create_task(replayed_click(), name="discord-ui-dynamic-item-replay")
        monkeypatch.setattr(bot, "is_ready", lambda: True)  # every shard resumed
        bot.dispatch("resumed")
        await asyncio.sleep(0.1)
        held = [bot.startup_repair, bot.ping_cleanup, bot.warming, bot.command_sync]
        assert not any(task.done() for task in held)
        assert len(fake.sent(*asked_commands)) == syncs and _edits(second) == 0
        answered.set()
        await click
        assert await bot.startup_repair == 1
        await bot.started()
        assert len(fake.sent(*asked_commands)) > syncs  # synced once caught up
        assert "clicks replayed at the start, answered first: 1" in caplog.text
    assert _tracebacks(caplog) == []


async def test_a_stale_click_is_still_refused_when_the_message_is_current(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        old = harness.message(live.id).snapshot()
        now = [1000.0]
        harness.bot.platform.clicks.double_taps.clock = lambda: now[0]
        await harness.click(anne, harness.message(live.id), "Roll")
        version = (await harness.session()).version
        now[0] += 60  # long after: not the quiet twin of a double tap
        again = await harness.click(anne, old, "Roll")  # a copy of the version before
        assert again.ephemeral is not None and not again.edited
        assert (await harness.session()).version == version
        assert _edits(harness) == 0  # nothing was behind: no repair
        assert _tracebacks(caplog) == []


async def test_a_game_ended_without_its_answer_still_shows_its_end(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob])
        confirm = (await harness.slash(anne, "pickomino", "end")).message
        harness.fake.fail[CALLBACK] = 404  # the confirmation's answer comes too late
        done = await harness.click(anne, confirm, "End the game")
        assert done.callbacks == []
        assert await harness.session() is None  # ended and committed...
        final = harness.message(live.id)  # ...and the live message shows the end
        assert "abandoned" in final.text()
        assert [b.get("label") for b in final.buttons] == ["Play again"]
        again = await harness.click(bob, final, "Play again")
        assert not again.message.ephemeral and "Pickomino lobby" in again.message.text()
        assert _tracebacks(caplog) == []


async def test_a_repair_that_fails_too_is_tried_again(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        harness.bot.sessions.repair_retry_seconds = (0.0,)  # at once, for the test
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        harness.fake.fail[CALLBACK] = 503  # the answer fails...
        harness.fake.fail[WEBHOOK_EDIT[1]] = 503  # ...and so does the first repair, through
        harness.fake.fail[EDIT[1]] = 503  # the last click's webhook and then the channel
        await harness.click(anne, harness.message(live.id), "Roll")
        version = (await harness.session()).version
        for _ in range(100):  # the retry comes on a later turn of the event loop
            if _versions(harness.message(live.id)) == {version}:
                break
            await asyncio.sleep(0)
            await harness.settle()
        assert _versions(harness.message(live.id)) == {version}
        # The failed repair (the webhook, then the channel), then the retry (the channel:
        # a token that failed is not used again).
        assert len(harness.fake.sent(*WEBHOOK_EDIT)) == 1 and len(harness.fake.sent(*EDIT)) == 2
        assert harness.bot.sessions.shown.behind == {}
        assert _tracebacks(caplog) == []


async def test_a_refusal_discord_no_longer_takes_is_logged_without_a_traceback(tmp_path, caplog):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        before = await harness.session()
        harness.fake.fail[CALLBACK] = 404  # the refusal comes after Discord's 3 s
        with caplog.at_level(logging.INFO, logger="bot.ui.replies"):
            await harness.click(harness.user("Carol"), harness.message(live.id), "Roll")
        assert (await harness.session()).version == before.version  # nothing played
        assert _tracebacks(caplog) == []
        assert any("no longer knows it" in r.getMessage() for r in caplog.records)


async def test_a_click_played_before_a_kill_but_not_marked_so_is_not_refused(
    tmp_path, caplog, monkeypatch
):
    """A process can die between a click's commit and its journal's mark of it (its
    loop busy, the committing task not yet resumed): the next process, replaying the
    click as not committed, finds it in its game and answers with the game, as for a
    marked one. It neither plays it twice nor tells the player it did not count."""
    caplog.set_level(logging.INFO, "bot.ui.clicks")
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, close=False) as first:
        anne, bob = first.user("Anne"), first.user("Bob")
        live = await start_game(first, [anne, bob], first_player="host")
        stale = first.message(live.id).snapshot()  # what the replayed clicks were made on

        async def die(*args: object) -> None:  # the process ends before its reply
            raise asyncio.CancelledError

        monkeypatch.setattr(LiveMessages, "reply_edit", die)
        roll = first.click_payload(anne, stale, "Roll")
        await first.dispatch(roll)
        monkeypatch.undo()
        committed = await first.session()
        fake = first.fake
    # Another click on the same buttons, which did not get that far: the game moved on.
    other = first.click_payload(anne, stale, "Roll")

    async with BotHarness.running(database, fake=fake, seed=5) as second:
        journal = {
            int(payload["id"]): Replayed(committed=False, acknowledged=False)
            for payload in (roll, other)
        }
        second.bot.platform.clicks.replayed = lambda interaction_id: journal.pop(
            interaction_id, None
        )
        answered = await second.dispatch(roll)
        assert answered.ephemeral is None, answered.ephemeral  # no "moved on" refusal
        assert answered.kinds == [6]  # acknowledged, then its message shown
        assert (await second.session()).version == committed.version, "rolled twice"
        assert _versions(second.message(live.id)) == {committed.version}
        assert "was committed before a restart" in caplog.text

        refused = await second.dispatch(other)
        assert refused.ephemeral is not None and "moved on" in refused.ephemeral
        assert (await second.session()).version == committed.version
    assert _tracebacks(caplog) == []


async def test_a_click_acknowledged_at_the_start_is_played_and_shown_by_an_edit(tmp_path, caplog):
    """A restarted process acknowledges the clicks its predecessor left before anything
    else (bot.connection.inflight); played once it can, each is shown through its
    interaction's webhook, with no second answer to Discord."""
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        before = await harness.session()
        roll = harness.click_payload(anne, harness.message(live.id), "Roll")
        result = harness.fake.expect_interaction(roll)
        session = harness.bot.http._HTTPClient__session  # type: ignore[attr-defined]
        assert await defer_update(session, int(roll["id"]), roll["token"])
        assert result.kinds == [6]
        # Asked again (a second restart), Discord says it has its answer: nothing to do.
        assert not await defer_update(session, int(roll["id"]), roll["token"])

        journal = {int(roll["id"]): Replayed(committed=False, acknowledged=True)}
        harness.bot.platform.clicks.replayed = lambda interaction_id: journal.pop(
            interaction_id, None
        )
        harness.bot._connection.parsers["INTERACTION_CREATE"](roll)
        await harness.settle()
        assert result.kinds == [6], "answered twice"
        assert result.ephemeral is None
        assert (await harness.session()).version == before.version + 1  # rolled once
        assert _versions(harness.message(live.id)) == {before.version + 1}
        assert harness.fake.sent(*WEBHOOK_EDIT), "not shown through its webhook"
    assert _tracebacks(caplog) == []


async def test_a_command_answered_after_discords_3_seconds_is_no_failure(tmp_path, caplog):
    """A process too busy, or just restarted, answers a /start after Discord's 3 s: the
    404 (10062) says nothing can reach its person any more. One INFO line, no traceback,
    no second try to tell them; the lobby nobody saw is closed, so the next /start opens
    one that is shown."""
    caplog.set_level(logging.INFO)
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        harness.fake.fail[CALLBACK] = (404, 10062)
        late = await harness.slash(anne, "pickomino", "start", turn_timer=0)
        assert late.callbacks == [] and late.messages == []
        assert _tracebacks(caplog) == []
        assert any("answered too late" in r.getMessage() for r in caplog.records)
        unseen = await harness.bot.sessions.by_id(1)
        assert unseen is not None and unseen.ending is Ending.CANCELLED
        assert unseen.message_id is None
        again = await harness.slash(anne, "pickomino", "start", turn_timer=0)
        assert again.ephemeral is None and len(again.callbacks) == 1
        shown = await harness.session()
        assert shown.id != unseen.id and shown.status is Status.LOBBY
        assert shown.message_id == again.message.id


async def test_a_lesson_answered_after_discords_3_seconds_is_abandoned_at_once(tmp_path, caplog):
    """/learn begins its practice game before showing it: one answered too late was seen
    by nobody, so it is abandoned at once (not left to its turn timer's three expiries),
    and the learner's next /learn starts a lesson that is shown."""
    caplog.set_level(logging.INFO)
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        harness.fake.fail[CALLBACK] = (404, 10062)
        late = await harness.slash(anne, "pickomino", "learn")
        assert late.callbacks == [] and late.messages == []
        assert _tracebacks(caplog) == []
        unseen = await harness.bot.sessions.by_id(1)
        assert unseen is not None and unseen.practice
        assert unseen.status is Status.OVER and unseen.ending is Ending.ABANDONED
        assert unseen.message_id is None
        assert harness.bot.sessions.in_memory(unseen.channel_id) is None
        again = await harness.slash(anne, "pickomino", "learn")
        assert again.ephemeral is None and len(again.callbacks) == 1
        shown = await harness.session()
        assert shown.id != unseen.id and shown.practice and shown.status is Status.PLAYING
        assert shown.message_id == again.message.id


@pytest.mark.parametrize("first_click", ["Join", "Add bot"])
async def test_a_lobby_shown_by_a_process_killed_before_it_kept_its_id_is_adopted(
    tmp_path, caplog, monkeypatch, first_click
):
    """The start's answer reached Discord, then the process died before it committed the
    lobby's message id (seen at 1,000 games: a kill 50 ms after a lobby was posted). The
    session is in the database without a message, so no edit reached its lobby: a
    computer player seated from the host's own message never showed, and the table was
    stuck. The first click on the lobby, a change or not, makes it the live message."""
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, close=False) as first:  # then "kill -9"
        anne, bob = first.user("Anne"), first.user("Bob")

        async def die_after_posting(self, session, post, *, close_unseen=False):
            await post(session)
            raise asyncio.CancelledError

        monkeypatch.setattr(SessionService, "_attach", die_after_posting)
        with contextlib.suppress(asyncio.CancelledError):
            await first.slash(anne, "pickomino", "start", turn_timer=0)
        monkeypatch.undo()
        lobby_id = max(first.fake.messages)
        fake = first.fake

    async with BotHarness.running(database, fake=fake, seed=5) as second:
        assert (await second.session()).message_id is None  # as the kill left it
        if first_click == "Join":
            joined = await second.click(bob, second.message(lobby_id), "Join")
            assert joined.edited, joined.ephemeral
        lobby = await add_bots(second, anne, second.message(lobby_id), "Easy")
        # The computer player is shown on the lobby by an edit nobody clicked for.
        assert "Easy" in lobby.text()
        assert (await second.session()).message_id == lobby_id
    async with BotHarness.running(database, fake=fake, seed=6) as third:
        assert (await third.session()).message_id == lobby_id  # committed
    assert _tracebacks(caplog) == []


async def test_a_lobby_never_shown_is_shown_by_the_next_start_in_its_channel(
    tmp_path, caplog, monkeypatch
):
    """The process died while it showed a new lobby, before Discord had it: the lobby is
    in the database and nobody can see it. /start in the channel used to answer with a
    link to the channel (no message of it there); it now shows that lobby."""
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, close=False) as first:  # then "kill -9"
        anne, bob = first.user("Anne"), first.user("Bob")

        async def die_before_posting(self, session, post, *, close_unseen=False):
            raise asyncio.CancelledError

        monkeypatch.setattr(SessionService, "_attach", die_before_posting)
        with contextlib.suppress(asyncio.CancelledError):
            await first.slash(anne, "pickomino", "start", turn_timer=0)
        monkeypatch.undo()
        fake = first.fake
    assert not fake.messages  # nothing reached Discord

    async with BotHarness.running(database, fake=fake, seed=5) as second:
        unseen = await second.session()
        answered = await second.slash(bob, "pickomino", "start")
        lobby = answered.message
        assert not lobby.ephemeral and "Anne is hosting" in lobby.text()
        shown = await second.session()
        assert (shown.id, shown.message_id) == (unseen.id, lobby.id)
        joined = await second.click(bob, second.message(lobby.id), "Join")
        assert joined.edited, joined.ephemeral
        # Shown now: the next /start links to it, as for any live lobby.
        again = await second.slash(bob, "pickomino", "start")
        assert again.ephemeral is not None and str(lobby.id) in again.ephemeral
    assert _tracebacks(caplog) == []
