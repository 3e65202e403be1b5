"""The table's actions take the click's path: the same changes and refusals (in the
actor's language), the version check for a move, the double-tap rule, a hint and a
review for the actor alone; the live message follows each change; bad input is refused
with nothing committed and no traceback."""

from __future__ import annotations

import logging
import time

import pytest

from bot.render.custom_ids import ComponentRef
from bot.sessions.actions import Actor
from bot.sessions.model import Place, Status
from bot.table.actions import Accepted, Private, Refused, TableActions, Where
from tests.cogs.helpers import choose, open_lobby, start_game
from tests.cogs.test_play_anywhere import GROUP_DM, TOKEN_LIFE, start_in_group_dm
from tests.cogs.test_turn_timer import Clock
from tests.discord_harness import CHANNEL_ID, GUILD_ID, BotHarness, FakeUser


def table_of(harness: BotHarness) -> TableActions:
    platform = harness.bot.platform
    return TableActions(platform.games, platform.sessions, platform.live, platform.reviews)


def actor(user: FakeUser, locale: str = "en") -> Actor:
    return Actor(user.id, user.name, locale)


async def version_now(harness: BotHarness) -> int:
    session = await harness.session()
    return session.version


async def test_a_join_at_the_table_is_the_joins_change_and_the_message_follows(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        lobby = await open_lobby(harness, anne)
        table = table_of(harness)
        session = await harness.session()
        done = await table.act(CHANNEL_ID, actor(bob, "de"), session.id, 0, "join")
        assert isinstance(done, Accepted) and done.session is not None
        joined = await harness.session()
        assert [seat.name for seat in joined.seats] == ["Anne", "Bob"]
        assert joined.seat(bob.id).locale == "de"  # the language they act in
        assert joined.at_table
        began = time.perf_counter()
        await harness.settle()
        assert time.perf_counter() - began < 1.0
        assert "Bob" in harness.message(lobby.id).text()


async def test_moves_at_the_table_play_a_whole_game_and_the_message_follows_each(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        table = table_of(harness)
        people = {anne.id: anne, bob.id: bob}
        for _ in range(2000):
            message = harness.message(live.id)
            if any(":again:" in button["custom_id"] for button in message.buttons):
                break
            ref = ComponentRef.from_custom_id(choose(message))
            player = people[(await harness.current_user()).id]
            outcome = await table.act(
                CHANNEL_ID, actor(player), ref.session_id, ref.version, ref.action, ref.arg
            )
            assert isinstance(outcome, Accepted), outcome
            await harness.settle()
            # The live message shows the version just committed: its buttons carry it.
            shown = harness.message(live.id)
            session = await harness.bot.sessions.by_id(ref.session_id)
            assert session is not None
            if session.status is not Status.OVER:
                assert f":{session.version}:" in shown.buttons[0]["custom_id"]
        final = harness.message(live.id)
        assert "game over" in final.text()
        ended = await harness.bot.sessions.by_id(ref.session_id)
        assert ended is not None and ended.status is Status.OVER

        review = await table.act(CHANNEL_ID, actor(bob), ended.id, 0, "review")
        assert isinstance(review, Private) and review.title.startswith("🔍")
        assert any("Anne" in line for line in review.lines)
        again = await table.act(CHANNEL_ID, actor(bob), ended.id, 0, "again")
        assert isinstance(again, Accepted) and again.session is not None
        lobby = await harness.session()
        assert lobby.status is Status.LOBBY and lobby.host_id == bob.id
        assert {seat.user_id for seat in lobby.seats} == {anne.id, bob.id}
        # Anne pressed Play again too: she is in that lobby already.
        twice = await table.act(CHANNEL_ID, actor(anne), ended.id, 0, "again")
        assert isinstance(twice, Accepted) and twice.session is not None
        assert twice.session.id == lobby.id
        await harness.settle()
        assert lobby.message_id is not None  # posted in the chat with the bot's token
        assert "Bob" in harness.message(lobby.message_id).text()


async def test_refusals_in_the_actors_language_change_nothing(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob, carol = harness.user("Anne"), harness.user("Bob"), harness.user("Carol")
        await start_game(harness, [anne, bob], first_player="host")
        table = table_of(harness)
        session = await harness.session()
        before = session.version
        sid = session.id

        # A move for another person's seat: it is Anne's turn.
        refused = await table.act(CHANNEL_ID, actor(bob, "de"), sid, before, "move", "roll")
        assert isinstance(refused, Refused) and "ist am Zug" in refused.text  # Bob's German
        assert "Anne" in refused.text
        # Someone not at the table.
        assert isinstance(
            await table.act(CHANNEL_ID, actor(carol), sid, before, "move", "roll"), Refused
        )
        # An old version.
        stale = await table.act(CHANNEL_ID, actor(anne), sid, before - 1, "move", "roll")
        assert isinstance(stale, Refused) and "moved on" in stale.text
        # A lobby action in play, and Start by someone who does not host.
        assert isinstance(await table.act(CHANNEL_ID, actor(bob), sid, 0, "start"), Refused)
        # Another session's id (a tab left on an old game).
        assert isinstance(
            await table.act(CHANNEL_ID, actor(anne), sid + 7, before, "move", "roll"), Refused
        )
        assert await version_now(harness) == before


async def test_a_lobby_action_by_someone_who_does_not_host_is_refused(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        await open_lobby(harness, anne)
        table = table_of(harness)
        session = await harness.session()
        await table.act(CHANNEL_ID, actor(bob), session.id, 0, "join")
        before = await version_now(harness)
        for action, arg in (("start", ""), ("bot", "easy"), ("dropbot", ""), ("cancel", "")):
            refused = await table.act(CHANNEL_ID, actor(bob), session.id, 0, action, arg)
            assert isinstance(refused, Refused) and "Anne" in refused.text, (action, refused)
        assert await version_now(harness) == before
        # The host may: a computer player of the middle level when none is named.
        added = await table.act(CHANNEL_ID, actor(anne), session.id, 0, "addbot")
        assert isinstance(added, Accepted)
        seated = await harness.session()
        assert [seat.bot_level for seat in seated.seats] == [None, None, "normal"]
        cancelled = await table.act(CHANNEL_ID, actor(anne), session.id, 0, "cancel")
        assert isinstance(cancelled, Accepted) and cancelled.session is not None
        assert cancelled.session.status is Status.OVER
        assert cancelled.session.closed_by == "Anne"


async def test_a_double_tap_is_accepted_again_without_a_second_change(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        await start_game(harness, [anne, bob], first_player="host")
        table = table_of(harness)
        session = await harness.session()
        first = await table.act(
            CHANNEL_ID, actor(anne), session.id, session.version, "move", "roll"
        )
        second = await table.act(
            CHANNEL_ID, actor(anne), session.id, session.version, "move", "roll"
        )
        assert isinstance(first, Accepted) and first.session is not None
        assert second == Accepted()  # its twin: done, not made again
        assert await version_now(harness) == session.version + 1
        # Another person's same press is no twin of Anne's: refused.
        other = await table.act(CHANNEL_ID, actor(bob), session.id, session.version, "move", "roll")
        assert isinstance(other, Refused)


async def test_a_hint_is_the_actors_alone_and_changes_nothing(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        await start_game(harness, [anne, bob], first_player="host")
        table = table_of(harness)
        session = await harness.session()
        hint = await table.act(CHANNEL_ID, actor(anne), session.id, session.version, "hint")
        assert isinstance(hint, Private) and hint.title == "Hint" and hint.lines
        assert all("**" not in line for line in hint.lines)  # plain text, no markdown
        assert isinstance(await table.act(CHANNEL_ID, actor(bob), session.id, 0, "hint"), Refused)
        assert await version_now(harness) == session.version


@pytest.mark.parametrize(
    ("session_id", "version", "action", "arg"),
    [
        (None, 3, "move", "roll"),  # no session
        (-1, 3, "move", "roll"),
        (1, -1, "move", "roll"),
        (1, 3, "fly", ""),  # no such action
        (1, 3, "menu", "roll"),  # a click's, not the table's
        (1, 3, "continue", ""),
        (1, 3, "move", "ROLL"),
        (1, 3, "move", "x" * 81),
        (1, 3, "move", "keep:9"),  # no such face
        (1, 3, "move", "claim:99"),
        (1, 3, "move", "<script>"),
        (1, 3, "bot", "grandmaster"),
        (1, 3, "open", "pickomino"),  # without where: nowhere to open it
    ],
)
async def test_bad_input_is_refused_with_nothing_committed_and_no_traceback(
    tmp_path, caplog, session_id, version, action, arg
):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        await start_game(harness, [anne, bob], first_player="host")
        table = table_of(harness)
        session = await harness.session()
        assert (session.id, session.version) == (1, 3)
        with caplog.at_level(logging.WARNING):
            outcome = await table.act(CHANNEL_ID, actor(anne), session_id, version, action, arg)
        assert isinstance(outcome, Refused) and outcome.text
        assert await version_now(harness) == 3
        assert [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info] == []


async def test_open_starts_a_lobby_where_there_is_none_and_posts_it(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        table = table_of(harness)
        here = Where(GUILD_ID, Place.SERVER)
        unknown = await table.act(CHANNEL_ID, actor(anne), None, 0, "open", "chess", where=here)
        assert isinstance(unknown, Refused)
        opened = await table.act(
            CHANNEL_ID, actor(anne, "pl"), None, 0, "open", "picker", where=here
        )
        assert isinstance(opened, Accepted)
        lobby = await harness.session()
        assert lobby.kind == "picker" and lobby.host_id == anne.id and lobby.language == "pl"
        assert lobby.at_table and lobby.message_id is not None
        assert [m.id for m in harness.fake.live_messages()] == [lobby.message_id]
        # A second lobby in the channel: refused, the first kept.
        again = await table.act(CHANNEL_ID, actor(bob), None, 0, "open", "pickomino", where=here)
        assert isinstance(again, Refused) and "already" in again.text
        assert (await harness.session()).id == lobby.id


async def test_where_no_token_reaches_the_message_it_waits_and_says_the_table_plays(tmp_path):
    clock = Clock()
    async with BotHarness.running(tmp_path / "bot.db", clock=clock) as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_in_group_dm(harness, [anne, bob], first_player="host")
        table = table_of(harness)
        session = await harness.session()
        moved = await table.act(
            CHANNEL_ID, actor(anne), session.id, session.version, "move", "roll"
        )
        assert isinstance(moved, Accepted)
        await harness.settle()
        assert f":{session.version + 1}:" in harness.message(live.id).buttons[0]["custom_id"]
        # Before the last click's token runs out: the last edit says the table plays on.
        await harness.bot.platform.live.show_waiting(CHANNEL_ID)
        await harness.settle()
        waiting = harness.message(live.id)
        assert "Being played at the table" in waiting.text()
        assert "Continue" in waiting.labels()

        clock.now += TOKEN_LIFE + 60  # nobody clicks in the chat any more
        seen = waiting.text()
        session = await harness.session()
        ref = ComponentRef.from_custom_id(choose(waiting))
        moved = await table.act(
            CHANNEL_ID, actor(anne), ref.session_id, session.version, ref.action, ref.arg
        )
        assert isinstance(moved, Accepted)  # committed, at the table...
        await harness.settle()
        assert harness.message(live.id).text() == seen  # ...the message left as it was
        assert harness.bot.sessions.is_behind(await harness.session())
        # A click in the chat brings it up to date.
        pressed = await harness.click(bob, harness.message(live.id), "Continue", private=GROUP_DM)
        assert pressed.edited
        assert not harness.bot.sessions.is_behind(await harness.session())
