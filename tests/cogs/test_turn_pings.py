"""Turn pings: a new message mentions only the person whose turn starts, and is deleted
when that turn ends; none for computer players; /pickomino notify turns them off."""

from __future__ import annotations

from tests.cogs.helpers import add_bots, choose, open_lobby, start_game
from tests.discord_harness import CHANNEL_ID, BotHarness, FakeUser, StoredMessage


def pings(harness: BotHarness) -> list[StoredMessage]:
    """The turn pings now in the channel."""
    log = harness.fake.channel_log.get(CHANNEL_ID, [])
    found = [harness.fake.messages.get(message_id) for message_id in log]
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
        request = harness.fake.sent("POST", "/channels/{channel_id}/messages")[-1]
        assert request.payload["allowed_mentions"]["users"] == [anne.id]
        assert request.payload["allowed_mentions"]["parse"] == []

        await harness.click(anne, harness.message(live.id), "Roll")
        assert [p.id for p in pings(harness)] == [first.id]  # the same turn: no new ping

        await play_turn(harness, live.id)
        [second] = pings(harness)
        assert second.content.startswith(f"<@{bob.id}>")
        assert first.id in harness.fake.deleted  # Anne's turn ended: her ping is gone


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
