"""Score pages outside a server (bot.score.pages), through the real bot and discord.py:
in a DM or group DM the history and leaderboard are that chat's (its channel id is its
community, as the recorder stores its games), a person's own card and history cover
every community they played in, and a server's pages stay the server's."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from bot.history.record import GameResult, SeatInfo
from tests.cogs.test_score import enabled, history_ids, save, seat
from tests.discord_harness import GUILD_ID, BotHarness, FakeUser, InteractionResult, PrivateChat
from tests.history.games import play, result_of

HOUR = 3600
GROUP = PrivateChat(910_000_000_000_000_001, group=True, name="Friday dice")
UNNAMED_GROUP = PrivateChat(910_000_000_000_000_002, group=True)
DM = PrivateChat(910_000_000_000_000_003)
ROBOT = SeatInfo(-1, "Robot (easy)", True)


@pytest.fixture
async def harness(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as running:
        yield running


def games_in(
    community: int, people: list[FakeUser], count: int, *, first_id: int, hours_ago: int = 0
) -> list[GameResult]:
    """`count` engine-played games in `community` (a server, or a chat's channel), one
    an hour, the newest `hours_ago` hours ago; computer players where a person plays
    alone (a DM)."""
    rng = random.Random(first_id)
    seats = [seat(user) for user in people] + ([ROBOT] if len(people) == 1 else [])
    now = int(time.time()) - hours_ago * HOUR
    return [
        result_of(
            play(rng, seats),
            seats,
            game_id=first_id + index,
            ended_at=now - (count - index) * HOUR,
            guild_id=community,
        )
        for index in range(count)
    ]


async def score(
    harness: BotHarness,
    user: FakeUser,
    name: str,
    *,
    private: PrivateChat | None = None,
    player: FakeUser | None = None,
    **options: Any,
) -> InteractionResult:
    """/pickomino score <name> as `user` typed it, in a server or in `private`, with
    `player:` resolved as Discord does (a member in a server, a user outside one)."""
    if player is None:
        return await harness.slash(user, "pickomino", "score", name, private=private, **options)
    payload = harness._base_payload(user, 2, GROUP.channel_id, False, private=private)
    resolved: dict[str, Any] = {"users": {str(player.id): player.user_payload()}}
    if private is None:
        member = player.member_payload()
        member.pop("user")
        resolved["members"] = {str(player.id): member}
    option = {"name": "player", "type": 6, "value": str(player.id)}
    payload["data"] = {
        "id": str(harness.fake.next_id()),
        "name": "pickomino",
        "type": 1,
        "options": [
            {
                "name": "score",
                "type": 2,
                "options": [{"name": name, "type": 1, "options": [option]}],
            }
        ],
        "resolved": resolved,
    }
    return await harness.dispatch(payload)


def field(result: InteractionResult, name: str) -> str:
    (value,) = [f["value"] for f in result.message.embed["fields"] if f["name"] == name]
    return value


async def anne_and_bob_everywhere(harness: BotHarness) -> tuple[FakeUser, FakeUser]:
    """Anne and Bob: 5 games in the server (1-5), 3 in the group DM (6-8); Anne alone
    against a computer player, 2 in her DM (9-10)."""
    anne, bob = harness.user("Anne"), harness.user("Bob")
    await save(
        harness,
        games_in(GUILD_ID, [anne, bob], 5, first_id=1, hours_ago=30)
        + games_in(GROUP.channel_id, [anne, bob], 3, first_id=6, hours_ago=20)
        + games_in(DM.channel_id, [anne], 2, first_id=9),
    )
    return anne, bob


# ---------------------------------------------------------------------- a chat's own


async def test_a_group_dm_shows_its_own_history_not_the_servers(harness):
    _, bob = await anne_and_bob_everywhere(harness)
    answer = await score(harness, bob, "history", private=GROUP)
    assert answer.message.embed["title"] == "Latest games in Friday dice"
    assert history_ids(answer) == [8, 7, 6]
    assert "Page 1 of 1 · 3 games" in answer.message.embed["footer"]["text"]

    unnamed = await score(harness, bob, "history", private=UNNAMED_GROUP)
    assert unnamed.ephemeral == (
        "No games finished in this chat yet; start one with /pickomino start."
    )


async def test_a_dm_shows_its_own_history(harness):
    anne, _ = await anne_and_bob_everywhere(harness)
    answer = await score(harness, anne, "history", private=DM)
    assert answer.message.embed["title"] == "Latest games in this chat"
    assert history_ids(answer) == [10, 9]


async def test_a_group_dms_leaderboard_counts_its_games_only(harness):
    anne, _ = await anne_and_bob_everywhere(harness)
    in_group = await score(harness, anne, "leaderboard", private=GROUP, ranking="games")
    in_server = await score(harness, anne, "leaderboard", ranking="games")
    group_lines = in_group.message.embed["description"]
    server_lines = in_server.message.embed["description"]
    counted = re.compile(r"\*\*(\w+)\*\* · (\d+) games")
    assert sorted(counted.findall(group_lines)) == [("Anne", "3"), ("Bob", "3")]
    assert sorted(counted.findall(server_lines)) == [("Anne", "5"), ("Bob", "5")]

    empty = await score(harness, anne, "leaderboard", private=UNNAMED_GROUP)
    assert empty.ephemeral == "No games finished in this chat yet; start one with /pickomino start."


async def test_someone_elses_card_in_a_group_dm_is_of_that_chat(harness):
    anne, bob = await anne_and_bob_everywhere(harness)
    card = await score(harness, anne, "player", private=GROUP, player=bob)
    assert card.message.embed["title"] == "Bob in Friday dice"
    assert field(card, "Games") == "3"
    assert card.message.embed["footer"]["text"].startswith("Finished games in this chat;")
    nobody = await score(harness, anne, "player", private=UNNAMED_GROUP, player=bob)
    assert nobody.ephemeral == (
        "Bob has not played in this chat yet; start a game with /pickomino start."
    )


# ---------------------------------------------------------------------- one's own


async def test_ones_own_card_in_a_dm_covers_the_server_and_the_group_dm(harness):
    anne, _ = await anne_and_bob_everywhere(harness)
    card = await score(harness, anne, "player", private=DM)
    assert card.message.embed["title"] == "Anne in every server and chat"
    assert field(card, "Games") == "10"
    assert card.message.embed["footer"]["text"].startswith(
        "Finished games in every server and chat; 10 stored"
    )
    asked_by_name = await score(harness, anne, "player", private=GROUP, player=anne)
    assert field(asked_by_name, "Games") == "10"


async def test_ones_own_history_in_a_dm_pages_every_community(harness):
    anne, bob = await anne_and_bob_everywhere(harness)
    await save(harness, games_in(GUILD_ID, [anne, bob], 3, first_id=11, hours_ago=40))
    first = await score(harness, anne, "history", private=DM, player=anne)
    assert first.message.embed["title"] == "Latest games of Anne, in every server and chat"
    assert history_ids(first) == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert enabled(first.message) == ["Next"]
    older = await harness.click(anne, harness.message(first.message.id), "Next", private=DM)
    assert older.edited and history_ids(older) == [13, 12, 11]
    assert older.message.embed["title"] == "Latest games of Anne, in every server and chat"


async def test_a_chat_tells_its_games_and_the_askers_own_from_anywhere(harness):
    anne, bob = await anne_and_bob_everywhere(harness)
    cleo = harness.user("Cleo")
    await save(harness, games_in(GUILD_ID, [bob, cleo], 1, first_id=11))
    in_group = await score(harness, bob, "game", private=GROUP, id=7)
    assert in_group.message.embed["title"] == "Game #7"
    from_server = await score(harness, anne, "game", private=DM, id=2)  # one of Anne's
    assert from_server.message.embed["title"] == "Game #2"
    not_annes = await score(harness, anne, "game", private=DM, id=11)
    assert not_annes.ephemeral == (
        "There is no game #11 in this chat. /pickomino score history shows the game numbers."
    )
    in_server = await score(harness, anne, "game", id=7)  # the group DM's, not the server's
    assert in_server.ephemeral and in_server.ephemeral.startswith(
        "There is no game #7 in this server"
    )


async def test_a_person_without_games_is_told_so_everywhere(harness):
    cleo = harness.user("Cleo")
    card = await score(harness, cleo, "player", private=DM)
    assert card.ephemeral == "Cleo has not played yet; start a game with /pickomino start."


# ---------------------------------------------------------------------- the pager


async def test_the_pager_turns_a_group_dms_pages(harness):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    await save(
        harness,
        games_in(GROUP.channel_id, [anne, bob], 12, first_id=1)
        + games_in(GUILD_ID, [anne, bob], 4, first_id=13),
    )
    first = await score(harness, bob, "history", private=GROUP)
    assert history_ids(first) == list(range(12, 2, -1))
    second = await harness.click(bob, harness.message(first.message.id), "Next", private=GROUP)
    assert second.edited and history_ids(second) == [2, 1]
    assert second.message.embed["title"] == "Latest games in Friday dice"
    assert "Page 2 of 2" in second.message.embed["footer"]["text"]
    refused = await harness.click(
        anne, harness.message(first.message.id), "Previous", private=GROUP
    )
    assert refused.ephemeral and refused.ephemeral.startswith("Only the person who asked")


# ---------------------------------------------------------------------- a server's


async def test_a_servers_pages_stay_the_servers(harness):
    anne, _ = await anne_and_bob_everywhere(harness)
    card = await score(harness, anne, "player")
    assert field(card, "Games") == "5"
    assert card.message.embed["footer"]["text"].startswith("Finished games in this server;")
    assert "every server" not in card.message.embed["title"]
    history = await score(harness, anne, "history")
    assert history_ids(history) == [5, 4, 3, 2, 1]
    own = await score(harness, anne, "history", player=anne)
    assert history_ids(own) == [5, 4, 3, 2, 1]
    assert own.message.embed["title"] == "Latest games of Anne"
