"""Turn pings: a new message mentions only the person whose turn starts, and is deleted
when that turn ends; none for computer players; /pickomino notify turns them off."""

from __future__ import annotations

import sqlite3

from tests.cogs.helpers import add_bots, choose, open_lobby, start_game
from tests.cogs.test_turn_timer import Clock
from tests.discord_harness import CHANNEL_ID, BotHarness, FakeDiscord, FakeUser, StoredMessage

FOLLOWUP = ("POST", "/webhooks/{webhook_id}/{webhook_token}")
DELETE_FOLLOWUP = ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
DELETE_MESSAGE = ("DELETE", "/channels/{channel_id}/messages/{message_id}")


def pings(harness: BotHarness) -> list[StoredMessage]:
    """The turn pings now in the channel."""
    return pings_in(harness.fake)


def pings_in(fake: FakeDiscord) -> list[StoredMessage]:
    log = fake.channel_log.get(CHANNEL_ID, [])
    found = [fake.messages.get(message_id) for message_id in log]
    return [
        m for m in found if m and not m.ephemeral and m.content.endswith("your turn in Pickomino.")
    ]


async def play_turn(harness: BotHarness, live_id: int) -> None:
    """The current person plays until the turn passes to someone else."""
    player = await harness.current_user()
    while (session := await harness.session()) and session.game.current_player == str(player.id):
        message = harness.message(live_id)
        await harness.click(player, message, choose(message))


async def test_each_turn_pings_its_player_alone_and_the_ping_goes_with_the_turn(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        [first] = pings(harness)
        assert first.content.startswith(f"<@{anne.id}>")
        # A follow-up of the click that started the game: no bot-token request.
        assert harness.fake.sent("POST", "/channels/{channel_id}/messages") == []
        request = harness.fake.sent(*FOLLOWUP)[-1]
        assert request.payload["allowed_mentions"]["users"] == [anne.id]
        assert request.payload["allowed_mentions"]["parse"] == []

        await harness.click(anne, harness.message(live.id), "Roll")
        assert [p.id for p in pings(harness)] == [first.id]  # the same turn: no new ping

        await play_turn(harness, live.id)
        [second] = pings(harness)
        assert second.content.startswith(f"<@{bob.id}>")
        assert first.id in harness.fake.deleted  # Anne's turn ended: her ping is gone
        # through the token that created it
        assert harness.fake.sent(*DELETE_FOLLOWUP) and not harness.fake.sent(*DELETE_MESSAGE)


async def test_with_no_token_fresh_the_bots_token_pings_in_a_server(tmp_path):
    clock = Clock()
    async with BotHarness.running(tmp_path / "bot.db", clock=clock) as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        [first] = pings(harness)
        clock.now += 15 * 60  # every interaction's token has run out
        await play_turn(harness, live.id)  # each click is a fresh token again...
        [second] = pings(harness)
        assert second.content.startswith(f"<@{bob.id}>")
        assert first.id in harness.fake.deleted
        # ...but the first ping's token is gone: the bot's token deleted it.
        [deleted] = harness.fake.sent(*DELETE_MESSAGE)
        assert deleted.ids["message_id"] == str(first.id)


async def test_notify_off_stops_the_pings_of_that_person_only(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        answer = await harness.slash(bob, "pickomino", "notify", turn_pings=False)
        assert "No more pings" in (answer.ephemeral or "")
        live = await start_game(harness, [anne, bob], first_player="host")
        assert len(pings(harness)) == 1
        await play_turn(harness, live.id)
        assert pings(harness) == []  # Bob's turn: no ping, and Anne's is gone

        await harness.slash(bob, "pickomino", "notify", turn_pings=True)
        await play_turn(harness, live.id)  # Bob's turn ends; Anne is pinged again
        assert [p.content.split(",")[0] for p in pings(harness)] == [f"<@{anne.id}>"]


async def test_computer_players_are_never_pinged(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne: FakeUser = harness.user("Anne")
        lobby = await add_bots(harness, anne, await open_lobby(harness, anne), "Easy")
        await harness.click(anne, harness.message(lobby.id), "Start")
        for _ in range(6):
            await harness.run_bots()
            if (await harness.session()) is None:
                break
            mentioned = {p.content.split(",")[0] for p in pings(harness)}
            assert mentioned <= {f"<@{anne.id}>"}
            if (await harness.session()).game.current_player == str(anne.id):
                assert len(pings(harness)) == 1
                await play_turn(harness, lobby.id)


async def test_a_ping_from_before_a_restart_goes_when_its_turn_ends(tmp_path):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, close=False) as first:  # then "kill -9"
        anne, bob = first.user("Anne"), first.user("Bob")
        live = await start_game(first, [anne, bob], first_player="host")
        [before] = pings(first)
        fake = first.fake
    async with BotHarness.running(database, fake=fake, seed=5, caught_up=False) as second:
        store = second.bot.platform.pings.store
        read, get = [], store.get

        async def read_again(channel_id: int) -> object:
            read.append(channel_id)
            return await get(channel_id)

        # Read once at the start for every game, not at each game's first change: not by
        # a click Discord replays to the restarted process, before the start-up's cleanup.
        store.get = read_again  # type: ignore[method-assign]
        await second.click(anne, second.message(live.id), "Roll")
        await second.settle()  # its ping's look, in the background
        assert read == []
        second.bot.go_on_after_replay()
        assert await second.bot.ping_cleanup == 0  # Anne's turn goes on: her ping stays
        assert [p.id for p in pings(second)] == [before.id]  # the same turn: no second ping
        await play_turn(second, live.id)
        [bobs] = pings(second)
        assert bobs.content.startswith(f"<@{bob.id}>")
        assert before.id in fake.deleted


async def test_a_ping_whose_turn_ended_while_the_bot_was_down_goes_at_start_up(
    tmp_path, monkeypatch
):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, close=False) as first:
        anne, bob = first.user("Anne"), first.user("Bob")
        live = await start_game(first, [anne, bob], first_player="host")
        [annes] = pings(first)

        async def killed_before_the_ping(change: object) -> None:
            return None  # the turn's end is committed and shown, then the process dies

        monkeypatch.setattr(first.bot.platform.pings, "after", killed_before_the_ping)
        await play_turn(first, live.id)
        fake = first.fake
    assert [p.id for p in pings_in(fake)] == [annes.id]  # left behind, Bob's turn now

    async with BotHarness.running(database, fake=fake, seed=5) as second:
        # The start-up cleanup deletes it, unless a change in the channel (the live
        # message's repair, say) got there first: either way it goes, and only once.
        assert await second.bot.ping_cleanup in (0, 1)
        assert fake.deleted.count(annes.id) == 1
        [bobs] = pings(second)  # and Bob, whose turn started unseen, is pinged
        assert bobs.content.startswith(f"<@{bob.id}>")
        # Ended games leave none behind either: the next start finds nothing to delete.
        end = await second.slash(anne, "pickomino", "end")
        await second.click(anne, end.message, "End the game")
        assert pings(second) == []
    async with BotHarness.running(database, fake=fake, seed=6) as third:
        assert await third.bot.ping_cleanup == 0
        rows = await third.bot.db.fetchall("SELECT * FROM turn_pings")
        assert [dict(row) for row in rows] == []


async def test_a_ping_left_by_a_game_that_ended_while_down_goes_at_start_up(tmp_path):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, close=False) as first:
        anne, bob = first.user("Anne"), first.user("Bob")
        await start_game(first, [anne, bob], first_player="host")
        [annes] = pings(first)
        fake = first.fake
    # The game ends while this process is down (ended by another process, say).
    with sqlite3.connect(database) as db:
        db.execute("UPDATE sessions SET status = 'over'")
    async with BotHarness.running(database, fake=fake, seed=6) as second:
        assert await second.bot.ping_cleanup == 1
        assert annes.id in fake.deleted and pings(second) == []
